#!/usr/bin/env python3
"""make-messages.py MAILDIR CAMPAIGN FIRST SECOND: writes the test's mail into MAILDIR/new, one
file per message, built with Python's email package (real MIME: multipart, quoted-printable,
base64, Latin-1, HTML only). FIRST and SECOND are the two players' order files of the open turn of CAMPAIGN;
the first player is blood@example.org (and peter.blood@example.net), the second
governor@example.org.
Each file's modification time is its delivery time, one minute apart, in the order below."""
import email.message
import email.policy
import os
import sys

maildir, campaign, attacker_path, defender_path = sys.argv[1:5]
attacker = open(attacker_path, encoding="utf-8").read()
defender = open(defender_path, encoding="utf-8").read()
os.makedirs(os.path.join(maildir, "new"), exist_ok=True)
os.makedirs(os.path.join(maildir, "cur"), exist_ok=True)
os.makedirs(os.path.join(maildir, "tmp"), exist_ok=True)
policy = email.policy.SMTP
n = [0]


def deliver(name, msg, raw=None):
    n[0] += 1
    path = os.path.join(maildir, "new", "%02d-%s" % (n[0], name))
    with open(path, "wb") as f:
        f.write(raw if raw is not None else msg.as_bytes(policy=policy))
    t = 1767300000 + 60 * n[0]
    os.utime(path, (t, t))
    return path


def new(sender, subject, mid):
    m = email.message.EmailMessage()
    m["From"] = sender
    m["To"] = "umpire@example.org"
    m["Subject"] = subject
    m["Message-ID"] = "<%s@players.example>" % mid
    m["Date"] = "Fri, 02 Jan 2026 10:00:00 +0000"
    return m


# 1. The attacker's orders as a base64 attachment of a multipart mail.
m = new("Captain Blood <blood@example.org>", "my orders", "m1")
m.set_content("Here are my orders, attached.\n")
m.add_attachment(attacker.encode("utf-8"), maintype="application", subtype="octet-stream",
                 filename="attacker.yaml")
first = deliver("attachment", m)

# 2. The defender's orders inline, quoted-printable, after a greeting, with a signature.
m = new("The Governor <Governor@Example.org>", "orders", "m2")
m.set_content("Dear umpire,\n\nmy orders follow.\n\n" + defender + "-- \nThe Governor\n",
              cte="quoted-printable")
deliver("inline-qp", m)

# 3. The attacker again, from his second address, inline in Latin-1 (a comment with an
#    accented word), base64: it replaces the first file.
m = new("peter.blood@example.net", "new orders", "m3")
body = "Changed my mind.\n---\n" + attacker.replace("orders:", "# Réunion at the quay\norders:", 1)
m.set_content(body.encode("latin-1"), maintype="text", subtype="plain", cte="base64")
m.set_param("charset", "iso-8859-1")
deliver("latin1-base64", m)

# 4. HTML only.
m = new("blood@example.org", "orders", "m4")
m.set_content("<html><body><p>campaign: " + campaign + "</p></body></html>", subtype="html")
deliver("html-only", m)

# 5. A forged sender: not a player's address.
m = new("Mallory <mallory@evil.example>", "orders", "m5")
m.set_content(attacker)
deliver("forged", m)

# 6. Orders for another campaign: left in new/ for that campaign's inbox.
m = new("blood@example.org", "orders", "m6")
m.set_content(attacker.replace("campaign: " + campaign, "campaign: other-game", 1))
deliver("other-campaign", m)

# 7. The first mail delivered a second time.
deliver("duplicate", None, open(first, "rb").read())

# 8. Orders with an error: a square off the table.
m = new("governor@example.org", "orders", "m8")
bad = defender.replace("campaign: " + campaign, "campaign: " + campaign + "\nbogus: 1", 1)
m.add_attachment(bad.encode("utf-8"), maintype="text", subtype="plain", filename="orders.yml")
deliver("bad-orders", m)

# 9. The defender's orders from the attacker's address.
m = new("blood@example.org", "orders", "m9")
m.set_content(defender)
deliver("wrong-player", m)
