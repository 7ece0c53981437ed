#!/usr/bin/env python3
"""smtp-send.py PORT FROM FILE ID [HEADER: VALUE...]: sends, as a player's mail program would,
one mail from FROM to umpire@example.org over SMTP to 127.0.0.1:PORT: FILE attached (an order
file; "-" for a short note instead), Message-ID <ID@players.example>, and the extra headers
given (a vacation responder's `Auto-Submitted: auto-replied`, `In-Reply-To: <...>`)."""
import email.message
import os
import smtplib
import sys

port, sender, path, mid = sys.argv[1:5]
m = email.message.EmailMessage()
m["From"] = sender
m["To"] = "umpire@example.org"
m["Subject"] = "orders" if path != "-" else "Out of office"
m["Message-ID"] = "<%s@players.example>" % mid
for h in sys.argv[5:]:
    k, v = h.split(": ", 1)
    m[k] = v
if path == "-":
    m.set_content("I am away until Monday; your mail will be read then.\n")
else:
    m.set_content("My orders are attached.\n")
    m.add_attachment(open(path, "rb").read(), maintype="application",
                     subtype="octet-stream", filename=os.path.basename(path))
with smtplib.SMTP("127.0.0.1", int(port)) as s:
    s.send_message(m)
