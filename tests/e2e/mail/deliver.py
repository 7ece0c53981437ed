#!/usr/bin/env python3
"""deliver.py MAILDIR FROM FILE ID TIME [SIG]: delivers into MAILDIR/new one mail from FROM with
FILE attached (its bytes exactly, base64), and SIG (an ssh-keygen -Y sign signature) attached
as FILE.sig when given; Message-ID <ID@players.example>, delivered at TIME (seconds since the
epoch: the file's modification time). Built with Python's email package."""
import email.message
import email.policy
import os
import sys

maildir, sender, path, mid, when = sys.argv[1:6]
for d in ("new", "cur", "tmp"):
    os.makedirs(os.path.join(maildir, d), exist_ok=True)
m = email.message.EmailMessage()
m["From"] = sender
m["To"] = "umpire@example.org"
m["Subject"] = "orders"
m["Message-ID"] = "<%s@players.example>" % mid
m.set_content("My orders are attached.\n")
m.add_attachment(open(path, "rb").read(), maintype="application", subtype="octet-stream",
                 filename=os.path.basename(path))
if len(sys.argv) > 6:
    m.add_attachment(open(sys.argv[6], "rb").read(), maintype="application",
                     subtype="octet-stream", filename=os.path.basename(path) + ".sig")
out = os.path.join(maildir, "new", "%s.%s" % (when, mid))
with open(out, "wb") as f:
    f.write(m.as_bytes(policy=email.policy.SMTP))
os.utime(out, (int(when), int(when)))
