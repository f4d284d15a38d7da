"""A time limit for the Python client tests.

pydraughts waits for its peer without a time limit, so a Tiao that never
answers would hang `make test`. Past the limit the watchdog prints every
thread's stack and the logs it was given, kills the Tiao processes it
was given (a listening Tiao would otherwise outlive the test), removes
the temporary directories it was given, and exits with status 1.
`faulthandler`'s own exit would skip all three (and `os._exit` skips a
`TemporaryDirectory`'s clean-up).
"""
import faulthandler
import os
import shutil
import sys
import threading

# Processes to kill, log files to print and directories to remove when
# the time runs out.
_children = []
_logs = []
_dirs = []


def watch(process):
    """Kill `process` (a subprocess.Popen) if the time runs out."""
    _children.append(process)
    return process


def show_on_timeout(path):
    """Print the file at `path` (a Tiao log) if the time runs out."""
    _logs.append(path)


def remove_on_timeout(path):
    """Remove the directory at `path` if the time runs out (after its logs
    are printed)."""
    _dirs.append(path)


def _expire(seconds):
    print(f"watchdog: still running after {seconds} s; the threads' stacks:", file=sys.stderr)
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    for path in _logs:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                print(f"--- {path} (last 4000 characters) ---\n{f.read()[-4000:]}",
                      file=sys.stderr)
        except OSError as e:
            print(f"--- {path}: {e}", file=sys.stderr)
    for p in _children:
        if p.poll() is None:
            p.kill()
            p.wait()
    for path in _dirs:
        shutil.rmtree(path, ignore_errors=True)
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(1)


def start(seconds):
    """Start the clock: past `seconds`, report and exit with status 1."""
    timer = threading.Timer(seconds, _expire, args=(seconds,))
    timer.daemon = True
    timer.start()
