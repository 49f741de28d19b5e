#!/usr/bin/env python3
"""Writes to the terminal per key press (docs/BENCHMARKS.md, "one write a frame").

Usage: strace -f -qq -e trace=write,read -o ST python3 bench/pty_key_writes.py N CMD...
then count write(1, ...) lines before and after the first read(0, "j"...) in ST.
Runs CMD under a 160x40 pty, lets its first frame settle (1.5 s), sends N keys
(j and k in turn, 80 ms apart, reading what comes), then Q."""
# run CMD on a pty; after the first frame settles, send N 'j' keys one at a time (waiting for output after each), then Q
n=int(sys.argv[1]); cmd=sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"]="xterm-256color"; os.environ["LINES"],os.environ["COLUMNS"]="40","160"
    os.execvp(cmd[0], cmd)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
def drain(t):
    end=time.monotonic()+t
    while time.monotonic()<end:
        r,_,_=select.select([fd],[],[],0.05)
        if r:
            try: os.read(fd,65536)
            except OSError: return
drain(1.5)
sys.stderr.write("MARK keys\n")
for i in range(n):
    os.write(fd,b"j" if i%2==0 else b"k"); drain(0.08)
os.write(fd,b"Q"); drain(0.5)
os.waitpid(pid,0)
