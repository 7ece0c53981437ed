#!/usr/bin/python3
"""smtp-server.py OUTDIR: a real SMTP server (Debian's python3-aiosmtpd) on 127.0.0.1 for the
mail tests. Picks a free port and writes it to OUTDIR/port once it accepts connections; every
message received is written whole to OUTDIR/NNN.eml with its envelope in OUTDIR/NNN.env (MAIL
FROM, then each RCPT TO) and the client's EHLO name in OUTDIR/NNN.helo, numbered from 001 in
the order received. A recipient whose local part is `unknown` is refused for good (550), as a
real server refuses a mailbox it does not have. When OUTDIR/clock exists (seconds since the
epoch: the test's clock), each message is kept as the recipient's mail server would deliver
it, a Received: header on top dated by that clock. Runs until killed."""
import email.utils
import os
import signal
import socket
import sys
import threading

from aiosmtpd.controller import Controller

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
lock = threading.Lock()
count = [0]


class Keep:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower().startswith("unknown@"):
            return "550 5.1.1 <%s>: Recipient address rejected: User unknown" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with lock:
            count[0] += 1
            base = os.path.join(out, "%03d" % count[0])
        with open(base + ".env.tmp", "w") as f:
            f.write(envelope.mail_from + "\n" + "".join(r + "\n" for r in envelope.rcpt_tos))
        with open(base + ".helo", "w") as f:
            f.write("%s\n" % session.host_name)
        data = envelope.original_content
        clock = os.path.join(out, "clock")
        if os.path.exists(clock):
            when = email.utils.formatdate(int(open(clock).read().strip()), usegmt=True)
            data = ("Received: from %s\r\n\tby 127.0.0.1 (aiosmtpd) for <%s>;\r\n\t%s\r\n"
                    % (session.host_name or "localhost", envelope.rcpt_tos[0], when)).encode() + data
        with open(base + ".eml.tmp", "wb") as f:
            f.write(data)
        os.rename(base + ".env.tmp", base + ".env")
        os.rename(base + ".eml.tmp", base + ".eml")
        return "250 OK"


s = socket.socket()
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
s.close()
controller = Controller(Keep(), hostname="127.0.0.1", port=port)
controller.start()
with open(os.path.join(out, "port.tmp"), "w") as f:
    f.write("%d\n" % port)
os.rename(os.path.join(out, "port.tmp"), os.path.join(out, "port"))
signal.sigwait({signal.SIGTERM, signal.SIGINT})
controller.stop()
