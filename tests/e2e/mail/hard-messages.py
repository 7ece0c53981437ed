#!/usr/bin/env python3
"""hard-messages.py MAILDIR ARMSTRONG FORSTER TIME: writes into MAILDIR/new the mail a game by
mail meets besides orders, built with Python's email package, delivered (file modification
time) one second apart from TIME - 30 on, but for 10-foreign-old (two hours before TIME).
ARMSTRONG and FORSTER are the players' order files of turn 1 (blood@example.org and
governor@example.org):
  01-vacation   a vacation responder's reply (Auto-Submitted: auto-replied)
  02-cron       cron's mail holding an order file (Auto-Submitted: auto-generated)
  03-bulk       Precedence: bulk            04-list      a mailing list's (List-Id)
  05-bounce     a delivery status notification (multipart/report, null Return-Path,
                from MAILER-DAEMON)
  06-empty      a file of 0 bytes
  07-oversize   orders with a 5 MiB attachment (the limit is 4 MiB)
  08-early      forster's orders for turn 2
  09-flowed     armstrong's orders in a format=flowed body (RFC 3676: indented lines
                space-stuffed, a long line broken softly), a blank line, a signature
  10-foreign-old  orders for campaign 'bewcastle-fry' (a typo), two hours old
  11-foreign-new  orders for campaign 'elsewhere', just delivered
  12-body-error   forster's orders in the body after a greeting, with an unknown key on the
                  body's line 9 (Message-ID <body-error@players.example>)"""
import email.message
import email.policy
import os
import sys

maildir, arm_path, for_path, when = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
arm = open(arm_path, encoding="utf-8").read()
fors = open(for_path, encoding="utf-8").read()
for d in ("new", "cur", "tmp"):
    os.makedirs(os.path.join(maildir, d), exist_ok=True)
n = [0]


def deliver(name, data, t=None):
    n[0] += 1
    path = os.path.join(maildir, "new", "%02d-%s" % (n[0], name))
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.as_bytes(policy=email.policy.SMTP))
    t = t if t is not None else when - 30 + n[0]
    os.utime(path, (t, t))


def new(sender, subject, mid, body):
    m = email.message.EmailMessage()
    m["From"] = sender
    m["To"] = "umpire@example.org"
    m["Subject"] = subject
    m["Message-ID"] = "<%s@players.example>" % mid
    m.set_content(body)
    return m


m = new("blood@example.org", "Out of office: orders", "vacation", "I am away until Monday.\n")
m["Auto-Submitted"] = "auto-replied (vacation)"
m["Precedence"] = "bulk"
deliver("vacation", m)
m = new("governor@example.org", "cron", "cron", fors)
m["Auto-Submitted"] = "auto-generated"
deliver("cron", m)
m = new("governor@example.org", "digest", "bulk", "news\n")
m["Precedence"] = "bulk"
deliver("bulk", m)
m = new("blood@example.org", "[list] orders", "list", arm)
m["List-Id"] = "Border reivers <reivers.lists.example>"
deliver("list", m)
b = email.message.EmailMessage()
b["From"] = "MAILER-DAEMON@players.example (Mail Delivery System)"
b["To"] = "umpire@example.org"
b["Return-Path"] = "<>"
b["Subject"] = "Undelivered Mail Returned to Sender"
b["Message-ID"] = "<bounce@players.example>"
b.set_content("I'm sorry to have to inform you that your message could not be delivered.\n")
b.add_attachment("Reporting-MTA: dns; players.example\n\nFinal-Recipient: rfc822; x@example.org\n"
                 "Action: failed\nStatus: 5.1.1\n", subtype="delivery-status")
b.replace_header("Content-Type", b["Content-Type"].replace("multipart/mixed", "multipart/report"))
deliver("bounce", b)
deliver("empty", b"")
m = new("blood@example.org", "orders", "oversize", "My orders, and a map.\n")
m.add_attachment(arm.encode() + b"#" * (5 * 1024 * 1024), maintype="application",
                 subtype="octet-stream", filename="armstrong.yaml")
deliver("oversize", m)
deliver("early", new("governor@example.org", "orders", "early",
                     fors.replace("turn: 1\n", "turn: 2\n")))
# format=flowed by hand (Python's email package does not write it): space-stuffing of lines
# that begin with a space, a soft break (a line ending in a space) inside the first comment.
lines = []
for line in arm.rstrip("\n").split("\n"):
    stuffed = " " + line if line.startswith(" ") else line
    if "[195, 130]]" in line:
        cut = stuffed.index("[195, 130]]")
        lines += [stuffed[:cut], stuffed[cut:]]
    else:
        lines.append(stuffed)
body = "Hello umpire,\r\n\r\n" + "\r\n".join(lines) + "\r\n\r\n-- \r\nArmstrong of Mangerton\r\n"
raw = ("From: blood@example.org\r\nTo: umpire@example.org\r\nSubject: orders\r\n"
       "Message-ID: <flowed@players.example>\r\nMIME-Version: 1.0\r\n"
       "Content-Type: text/plain; charset=utf-8; format=flowed\r\n"
       "Content-Transfer-Encoding: 8bit\r\n\r\n" + body)
deliver("flowed", raw.encode())
deliver("foreign-old", new("blood@example.org", "orders", "typo",
                           arm.replace("campaign: bewcastle-fray", "campaign: bewcastle-fry")),
        when - 7200)
deliver("foreign-new", new("blood@example.org", "orders", "elsewhere",
                           arm.replace("campaign: bewcastle-fray", "campaign: elsewhere")))
bad = fors.replace("turn: 1\n", "turn: 1\nbogus: 1\n")
body = "Dear umpire,\n\nmy orders follow.\n\n" + bad
assert body.split("\n").index("bogus: 1") == 8, body
deliver("body-error", new("governor@example.org", "orders", "body-error", body))
