#!/usr/bin/python3
"""tsa-server.py DIR OUTDIR: a real RFC 3161 time-stamp authority over HTTP on 127.0.0.1 for
the tests (Python's http.server; the answers are signed by `openssl ts -reply` with
DIR/tsa.cnf, made by make-tsa.sh). A POST to any path is answered with the time-stamp
response for its body (application/timestamp-reply); to /stall it is never answered (an
authority that hangs); to /garbage the answer is bytes that are no response. Picks a free
port and writes it to OUTDIR/port once it accepts connections; each request's path is
appended to OUTDIR/requests. Runs until killed."""
import http.server
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

root, out = sys.argv[1:3]
os.makedirs(out, exist_ok=True)


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        pass

    def do_POST(self):
        with open(os.path.join(out, "requests"), "a") as f:
            f.write(self.path + "\n")
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/stall":
            time.sleep(3600)
            return
        if self.path == "/garbage":
            answer = b"\x30\x03\x02\x01\x00 not a time stamp"
        else:
            with tempfile.TemporaryDirectory() as tmp:
                q, r = os.path.join(tmp, "q.tsq"), os.path.join(tmp, "r.tsr")
                with open(q, "wb") as f:
                    f.write(body)
                p = subprocess.run(["openssl", "ts", "-reply", "-queryfile", q, "-config",
                                    os.path.join(root, "tsa.cnf"), "-out", r],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                if p.returncode != 0:
                    self.send_error(500, p.stderr.decode("utf-8", "replace")[:200])
                    return
                with open(r, "rb") as f:
                    answer = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/timestamp-reply")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
threading.Thread(target=server.serve_forever, daemon=True).start()
with open(os.path.join(out, "port.tmp"), "w") as f:
    f.write("%d\n" % server.server_address[1])
os.rename(os.path.join(out, "port.tmp"), os.path.join(out, "port"))
signal.sigwait({signal.SIGTERM, signal.SIGINT})
