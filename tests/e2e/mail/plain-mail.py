#!/usr/bin/python3
"""plain-mail.py MAILDIR FROM TEXT ID AT: a plain mail from FROM to the umpire whose body is TEXT
(a player asking for more time, say), put in MAILDIR/new/ID with Message-ID <ID@players.example>,
delivered at AT (seconds since the epoch: the file's time)."""
import email.message, email.policy, os, sys

md, sender, text, mid, when = sys.argv[1:6]
m = email.message.EmailMessage()
m["From"] = sender
m["To"] = "umpire@example.org"
m["Subject"] = "more time"
m["Message-ID"] = "<%s@players.example>" % mid
m.set_content(text + "\n\nThanks.\n")
p = os.path.join(md, "new", mid)
open(p, "wb").write(m.as_bytes(policy=email.policy.SMTP))
os.utime(p, (int(when), int(when)))
