#!/usr/bin/env python3
"""Time a full-screen program under a pseudo-terminal (160x40, TERM=xterm-256color).

Usage: pty_first_frame.py RUNS QUITKEY MARKER [MARKER2] -- CMD...

Each run forks CMD on a new pty, reads everything it writes and timestamps
(from fork) the first moment MARKER (then MARKER2) appears in the output with
escape sequences stripped, then sends QUITKEY and waits for the exit.
Prints the median and min/max of each over RUNS runs, in ms, and of the quit
alone (the last marker seen, when the key is sent, to the exit)."""
import os, pty, re, select, signal, statistics, struct, sys, termios, fcntl, time

ESC = re.compile(rb"\x1b(\[[0-9;?>=]*[ -/]*[@-~]|[()][A-Za-z0-9]|[=>78cDEHMZ])")

def one(cmd, quit_key, markers):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.environ["LINES"], os.environ["COLUMNS"] = "40", "160"
        os.execvp(cmd[0], cmd)
    t0 = time.monotonic()
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
    buf, seen, sent = b"", [], False
    deadline = t0 + 30
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.5)
        if not r:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        buf += data
        while len(seen) < len(markers) and markers[len(seen)] in ESC.sub(b"", buf):
            seen.append((time.monotonic() - t0) * 1e3)
        if len(seen) == len(markers) and not sent:
            os.write(fd, quit_key)
            sent = True
    if not sent:
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    t_exit = (time.monotonic() - t0) * 1e3
    os.close(fd)
    if len(seen) < len(markers):
        sys.exit("marker %r never appeared in %s's output" % (markers[len(seen)], cmd[0]))
    return seen + [t_exit]

def main():
    a = sys.argv[1:]
    sep = a.index("--")
    runs, quit_key, markers, cmd = int(a[0]), a[1].encode(), [m.encode() for m in a[2:sep]], a[sep + 1:]
    res = [one(cmd, quit_key, markers) for _ in range(runs)]
    names = ["'%s' on screen" % m.decode() for m in markers] + ["exit after '%s'" % quit_key.decode()]
    # the quit alone: from the last marker seen (the key is sent then) to the exit, run by run
    res = [r + [r[-1] - r[-2]] for r in res]
    names.append("'%s' sent -> exit" % quit_key.decode())
    for i, n in enumerate(names):
        col = [r[i] for r in res]
        print("%s: %s median %.1f ms (min %.1f, max %.1f, n=%d)" %
              (os.path.basename(cmd[0]), n, statistics.median(col), min(col), max(col), runs))

main()
