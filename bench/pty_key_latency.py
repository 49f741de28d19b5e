#!/usr/bin/env python3
"""Key-press latency of `rung tui` under a pseudo-terminal (160x40, TERM=xterm-256color).

Usage: pty_key_latency.py [--evaluate] [--no-wait] [--keys N] [--gap MIN:MAX] [--seed S] [--nice-others N]
                          -- CMD...

Forks CMD (a `rung tui` command line) on a new pty and reads everything it
writes, feeding a small VT100/xterm screen model (enough of what ncurses sends
for xterm-256color: cursor moves, erases, scroll region, insert/delete) so the
status line (row 40) can be read at any moment. After the first frame (the
status line's right side reads " 1/TOTAL"):

  --evaluate  sends `E` (queue every version), waits until the status line says
              "queued", and measures the keys while the evaluation runs;

  --nice-others N  before each key, sets every thread of CMD but the main
              (UI) one to nice N (setpriority on the thread id): an experiment,
              what the UI thread gets when the compile threads yield to it;

then sends N keys (j ten times, k ten times, and so on: the cursor walks rows
1..11 and back, no scrolling), each MIN..MAX ms (uniform, seeded) after the one
before it, once that one's redraw ended. For each key it records, from the
moment just before write():

  first  the first pty output byte that follows the write;
  drawn  the first moment the screen model shows the key's effect: the status
         line's right side reads the new " ROW/TOTAL" (this is the key's own
         redraw, whatever progress redraws of the evaluation came before it);
  end    the last byte of that redraw: the output is then quiet for 2 ms;

the UI (main) thread's time on a CPU and its time runnable but waiting for
a CPU between the write and the effect (/proc/PID/task/PID/schedstat: what is
rung's own work and what is the machine's other load), and this harness's own
time waiting for a CPU (its timestamps are late by as much); and whether the
evaluation was in flight: the status line's left side starts
with "evaluating" once the key's redraw ended. With --evaluate it then waits
(up to 600 s; not with --no-wait) for the evaluation to end and prints how long
it ran from `E`. Prints median / p90 / max of
each over all keys and over the in-flight ones, the counts, and the three
slowest keys with what came before their effect; exits 1 when a
key's effect never appeared (1 s) or the program died."""
import fcntl, math, os, pty, random, re, select, signal, statistics, struct, sys, termios, time

ROWS, COLS = 40, 160
QUIET = 0.002


class Screen:
    """The few xterm controls ncurses uses, on a ROWS x COLS grid of characters."""

    CSI = re.compile(rb"\x1b\[([?>=!]?)([0-9;:]*)([ -/]*)([@-~])")

    def __init__(self):
        self.g = [[" "] * COLS for _ in range(ROWS)]
        self.y = self.x = 0
        self.top, self.bot = 0, ROWS - 1
        self.wrap = True
        self.pending = False  # the last column was written: the next character wraps
        self.saved = (0, 0)
        self.tail = b""

    def _scroll_up(self, n=1):
        for _ in range(n):
            del self.g[self.top]
            self.g.insert(self.bot, [" "] * COLS)

    def _scroll_down(self, n=1):
        for _ in range(n):
            del self.g[self.bot]
            self.g.insert(self.top, [" "] * COLS)

    def _lf(self):
        if self.y == self.bot:
            self._scroll_up()
        elif self.y < ROWS - 1:
            self.y += 1

    def _put(self, ch):
        if self.pending and self.wrap:
            self.x = 0
            self._lf()
        self.pending = False
        self.g[self.y][self.x] = ch
        if self.x == COLS - 1:
            self.pending = True
        else:
            self.x += 1

    def _csi(self, priv, params, final):
        ps = [int(p) if p else 0 for p in params.replace(b":", b";").split(b";")] if params else []
        p1 = ps[0] if ps else 0
        n = max(p1, 1)
        self.pending = False
        if priv == "?":
            if final in "hl" and 7 in ps:
                self.wrap = final == "h"
            return
        if final in "Hf":
            self.y = min(max(p1, 1), ROWS) - 1
            self.x = min(max(ps[1] if len(ps) > 1 else 1, 1), COLS) - 1
        elif final == "A":
            self.y = max(self.y - n, 0)
        elif final in "Be":
            self.y = min(self.y + n, ROWS - 1)
        elif final in "Ca":
            self.x = min(self.x + n, COLS - 1)
        elif final == "D":
            self.x = max(self.x - n, 0)
        elif final in "G`":
            self.x = min(n, COLS) - 1
        elif final == "d":
            self.y = min(n, ROWS) - 1
        elif final == "K":
            row = self.g[self.y]
            a, b = {0: (self.x, COLS), 1: (0, self.x + 1), 2: (0, COLS)}.get(p1, (0, 0))
            row[a:b] = [" "] * (b - a)
        elif final == "J":
            if p1 == 0:
                self.g[self.y][self.x:] = [" "] * (COLS - self.x)
                rows = range(self.y + 1, ROWS)
            elif p1 == 1:
                self.g[self.y][: self.x + 1] = [" "] * (self.x + 1)
                rows = range(0, self.y)
            else:
                rows = range(ROWS)
            for r in rows:
                self.g[r] = [" "] * COLS
        elif final == "X":
            e = min(self.x + n, COLS)
            self.g[self.y][self.x:e] = [" "] * (e - self.x)
        elif final == "@":
            row = self.g[self.y]
            row[self.x:self.x] = [" "] * n
            del row[COLS:]
        elif final == "P":
            row = self.g[self.y]
            del row[self.x:self.x + n]
            row.extend([" "] * (COLS - len(row)))
        elif final in "LM" and self.top <= self.y <= self.bot:
            top = self.top
            self.top = self.y
            (self._scroll_down if final == "L" else self._scroll_up)(n)
            self.top = top
        elif final == "S":
            self._scroll_up(n)
        elif final == "T":
            self._scroll_down(n)
        elif final == "r":
            self.top = max(p1, 1) - 1
            self.bot = min(ps[1] if len(ps) > 1 and ps[1] else ROWS, ROWS) - 1
            self.y = self.x = 0
        elif final == "b" and self.x > 0:  # repeat the character before the cursor
            ch = self.g[self.y][self.x - 1]
            for _ in range(n):
                self._put(ch)
        # m (colours), t, h/l (modes) change nothing that is read here

    def feed(self, data):
        s = self.tail + data
        self.tail = b""
        i, L = 0, len(s)
        while i < L:
            c = s[i]
            if c == 0x1B:
                if i + 1 >= L:
                    self.tail = s[i:]
                    return
                n = s[i + 1]
                if n == 0x5B:  # [
                    m = self.CSI.match(s, i)
                    if not m:
                        if len(s) - i < 64:
                            self.tail = s[i:]
                            return
                        i += 2
                        continue
                    self._csi(m.group(1).decode(), m.group(2), m.group(4).decode())
                    i = m.end()
                    continue
                if n in b"()*+":
                    if i + 2 >= L:
                        self.tail = s[i:]
                        return
                    i += 3
                    continue
                if n == 0x4D:  # ESC M: reverse index
                    if self.y == self.top:
                        self._scroll_down()
                    elif self.y > 0:
                        self.y -= 1
                elif n == 0x44:  # ESC D: index
                    self._lf()
                elif n == 0x45:  # ESC E: next line
                    self.x = 0
                    self._lf()
                elif n == 0x37:
                    self.saved = (self.y, self.x)
                elif n == 0x38:
                    self.y, self.x = self.saved
                self.pending = False
                i += 2
                continue
            if c < 0x20:
                if c == 0x0D:
                    self.x = 0
                elif c == 0x0A:
                    self._lf()
                elif c == 0x08:
                    self.x = max(self.x - 1, 0)
                elif c == 0x09:
                    self.x = min((self.x // 8 + 1) * 8, COLS - 1)
                self.pending = False
                i += 1
                continue
            if c < 0x80:
                self._put(chr(c))
                i += 1
                continue
            n = 2 if c >> 5 == 0x6 else 3 if c >> 4 == 0xE else 4 if c >> 3 == 0x1E else 1
            if i + n > L:
                self.tail = s[i:]
                return
            self._put(s[i:i + n].decode("utf-8", "replace"))
            i += n

    def row(self, r):
        return "".join(self.g[r])


def pct(v, p):
    v = sorted(v)
    return v[max(0, math.ceil(p / 100 * len(v)) - 1)]  # nearest rank


def main():
    a = sys.argv[1:]
    sep = a.index("--")
    opts, cmd = a[:sep], a[sep + 1:]
    evaluate, nkeys, gap, seed, nice_others, wait_end = False, 60, (50.0, 100.0), 13, None, True
    i = 0
    while i < len(opts):
        o = opts[i]
        if o == "--evaluate":
            evaluate = True
        elif o == "--keys":
            i += 1
            nkeys = int(opts[i])
        elif o == "--gap":
            i += 1
            lo, hi = opts[i].split(":")
            gap = (float(lo), float(hi))
        elif o == "--no-wait":
            wait_end = False
        elif o == "--nice-others":
            i += 1
            nice_others = int(opts[i])
        elif o == "--seed":
            i += 1
            seed = int(opts[i])
        else:
            sys.exit("pty_key_latency.py: unknown option %s" % o)
        i += 1
    rnd = random.Random(seed)

    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.environ["LINES"], os.environ["COLUMNS"] = str(ROWS), str(COLS)
        os.execvp(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    scr = Screen()
    state = {"last": 0.0, "dead": False}

    def pump(timeout):
        """Reads what is there within timeout seconds; returns the time of the first byte or None."""
        if state["dead"]:
            return None
        r, _, _ = select.select([fd], [], [], max(timeout, 0))
        if not r:
            return None
        t = time.monotonic()
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if not data:
            state["dead"] = True
            return None
        scr.feed(data)
        state["last"] = t
        return t

    def status():
        return scr.row(ROWS - 1)

    def wait_for(pred, limit):
        end = time.monotonic() + limit
        while not pred():
            if state["dead"] or time.monotonic() > end:
                return False
            pump(end - time.monotonic())
        return True

    def fail(msg):
        if not state["dead"]:
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        sys.exit("pty_key_latency.py: %s\nstatus line: %r" % (msg, status().rstrip()))

    def sched():
        """The UI (main) thread's time on a CPU and time waiting for one, and this
        harness's time waiting for one, in ns (/proc schedstat)."""
        v = []
        for path in ("/proc/%d/task/%d/schedstat" % (pid, pid), "/proc/self/schedstat"):
            try:
                with open(path) as f:
                    v += [int(x) for x in f.read().split()[:2]]
            except (OSError, ValueError):
                v += [0, 0]
        return v[0], v[1], v[3]

    reniced = set()

    def renice_others():
        """Every thread of CMD but its main (UI) thread to nice nice_others."""
        try:
            tids = [int(t) for t in os.listdir("/proc/%d/task" % pid)]
        except OSError:
            return
        for tid in tids:
            if tid != pid and tid not in reniced:
                try:
                    os.setpriority(os.PRIO_PROCESS, tid, nice_others)
                    reniced.add(tid)
                except OSError:
                    pass

    pos = re.compile(r" (\d+)/(\d+)\s*$")
    if not wait_for(lambda: pos.search(status()) is not None, 30):
        fail("no first frame (status line ' ROW/TOTAL')")
    wait_for(lambda: False, 0.3)  # let the first frame settle
    total = int(pos.search(status()).group(2))
    cur = int(pos.search(status()).group(1))
    t_e = None
    if evaluate:
        t_e = time.monotonic()
        os.write(fd, b"E")
        if not wait_for(lambda: "queued" in status(), 5):
            fail("E: no 'queued' on the status line")
        wait_for(lambda: False, 0.2)

    res = []  # (first, drawn, end, in_flight) in ms
    t_next = time.monotonic()
    for k in range(nkeys):
        key = b"j" if (k // 10) % 2 == 0 else b"k"
        cur = min(cur + 1, total) if key == b"j" else max(cur - 1, 1)
        want = " %d/%d" % (cur, total)
        # the output that was already there goes to the screen first
        while time.monotonic() < t_next:
            pump(t_next - time.monotonic())
        while pump(0) is not None:
            pass
        if nice_others is not None:
            renice_others()
        s0 = sched()
        t0 = time.monotonic()
        os.write(fd, key)
        first = drawn = None
        reads = 0  # reads before the one that showed the key's effect
        deadline = t0 + 1.0
        while drawn is None:
            if state["dead"] or time.monotonic() > deadline:
                fail("key %d (%s): %r never on the status line" % (k + 1, key.decode(), want))
            t = pump(deadline - time.monotonic())
            if t is None:
                continue
            if first is None:
                first = t
            if status().rstrip().endswith(want.rstrip()):
                drawn = t
            else:
                reads += 1
        s1 = sched()
        # the end of this redraw: 2 ms without output
        while pump(QUIET) is not None:
            pass
        end = state["last"]
        in_flight = status().lstrip().startswith("evaluating")
        res.append(((first - t0) * 1e3, (drawn - t0) * 1e3, (end - t0) * 1e3, in_flight, k + 1, key.decode(), reads,
                    status().strip(), (s1[0] - s0[0]) / 1e6, (s1[1] - s0[1]) / 1e6,
                    (s1[2] - s0[2]) / 1e6))
        t_next = end + rnd.uniform(*gap) / 1e3
    still = status().lstrip().startswith("evaluating")
    t_over = None
    if evaluate and wait_end and wait_for(lambda: not status().lstrip().startswith("evaluating"), 600):
        t_over = state["last"]
    os.write(fd, b"Q")
    if not wait_for(lambda: state["dead"], 10):
        fail("no exit after Q")
    os.waitpid(pid, 0)
    os.close(fd)

    name = "evaluation in flight" if evaluate else "idle"
    if nice_others is not None:
        name += ", rung's other threads at nice %d (%d threads)" % (nice_others, len(reniced))
    print("%s: %d keys sent (j/k, %g-%g ms apart), %d of them with the status line saying 'evaluating' after the "
          "key's redraw%s" % (name, len(res), gap[0], gap[1], sum(r[3] for r in res),
                               ("; at the last key the evaluation was " + ("still running" if still else "over"))
                               if evaluate else ""))
    if t_over is not None:
        print("%s: E -> the status line no longer says 'evaluating' (every version done): %.0f ms" %
              (name, (t_over - t_e) * 1e3))
    sets = [("all keys", res)]
    if evaluate:
        sets.append(("keys while evaluating", [r for r in res if r[3]]))
    for label, rs in sets:
        if not rs:
            print("%s: %s: none" % (name, label))
            continue
        for j, what in [(0, "write -> first output byte"), (1, "write -> key's effect on screen"),
                        (2, "write -> end of redraw (2 ms quiet)"),
                        (8, "rung's UI thread on a CPU, write -> effect"),
                        (9, "rung's UI thread runnable but waiting for a CPU, write -> effect"),
                        (10, "this harness waiting for a CPU, write -> effect")]:
            col = [r[j] for r in rs]
            print("%s: %s (n=%d): %s: median %.2f ms, p90 %.2f, max %.2f, over 16 ms: %d" %
                  (name, label, len(rs), what, statistics.median(col), pct(col, 90), max(col),
                   sum(c > 16 for c in col)))
    for r in sorted(res, key=lambda r: -r[1])[:3]:
        print("%s: slow key #%d (%s): first byte %.2f ms, effect %.2f ms, end %.2f ms, %d read(s) of output "
              "before the one with the effect, UI thread on a CPU %.2f ms, waiting for one %.2f ms, harness waiting "
              "for one %.2f ms; status line then: %r" %
              (name, r[4], r[5], r[0], r[1], r[2], r[6], r[8], r[9], r[10], " ".join(r[7].split())))


main()
