#!/usr/bin/python3
"""http-server.py ROOT OUTDIR: a real HTTP server (Python's http.server) on 127.0.0.1 serving the
files under ROOT, standing in for a drand relay in the beacon tests (no network in tests). Picks
a free port and writes it to OUTDIR/port once it accepts connections; every request path is
appended to OUTDIR/requests. Runs until killed."""
import functools
import http.server
import os
import signal
import sys
import threading

root, out = sys.argv[1:3]
os.makedirs(out, exist_ok=True)


class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, fmt, *args):
        with open(os.path.join(out, "requests"), "a") as f:
            f.write(self.path + "\n")


server = http.server.ThreadingHTTPServer(
    ("127.0.0.1", 0), functools.partial(Handler, directory=root))
threading.Thread(target=server.serve_forever, daemon=True).start()
with open(os.path.join(out, "port.tmp"), "w") as f:
    f.write("%d\n" % server.server_address[1])
os.rename(os.path.join(out, "port.tmp"), os.path.join(out, "port"))
signal.sigwait({signal.SIGTERM, signal.SIGINT})
server.shutdown()
