-- tests/unit/journal-v1.sql: schemas/journal.sql as it was at schema_version 1 (before issue 38,
-- a copy of every committed file in files.bytes), the journal check_journal migrates.
-- A frozen fixture, on purpose a copy: the migration test needs the old format's exact DDL,
-- so never edit it to follow schemas/journal.sql (the old journals in users' hands do not).
-- journal.sql — the umpire journal (.umpire/journal.sqlite), schema_version 1.
-- Append-only: triggers refuse every UPDATE and DELETE, and every INSERT that is not the
-- next turn or does not extend the newest turn densely, so INSERT OR REPLACE cannot
-- overwrite anything. Documented in docs/journal.md. src/core/journal.c embeds this text;
-- tests/unit/check_journal.c checks that both give the same database.
-- The dense-row triggers compare with MAX(...) + 1, which the primary key's index answers in
-- one look-up; journals made before them (COUNT(*) of the turn on each insert, O(k^2) per
-- turn) get these triggers when journal_open first opens them (docs/journal.md).

CREATE TABLE meta (
	key TEXT PRIMARY KEY NOT NULL,
	value TEXT NOT NULL
) STRICT;

CREATE TABLE turns (
	turn INTEGER PRIMARY KEY NOT NULL CHECK (turn >= 0),   -- 0 = setup
	key TEXT CHECK (key IS NULL OR (length(key) = 64 AND key NOT GLOB '*[^0-9a-f]*')),
	orders_digest TEXT CHECK (orders_digest IS NULL
		OR (length(orders_digest) = 64 AND orders_digest NOT GLOB '*[^0-9a-f]*')),
	beacon TEXT CHECK (beacon IS NULL
		OR (length(beacon) = 64 AND beacon NOT GLOB '*[^0-9a-f]*')),
	seed TEXT CHECK (seed IS NULL OR (length(seed) = 64 AND seed NOT GLOB '*[^0-9a-f]*')),
	state_sha256 TEXT NOT NULL
		CHECK (length(state_sha256) = 64 AND state_sha256 NOT GLOB '*[^0-9a-f]*'),
	summary TEXT NOT NULL,
	processed_at INTEGER NOT NULL,  -- seconds since the epoch, UTC (the commit time)
	beacon_value TEXT,              -- the public beacon value mixed in (B_t = SHA256 of it)
	beacon_round TEXT,              -- the round the umpire announced for it
	journal_head TEXT NOT NULL       -- SHA256(previous head || this entry's canonical bytes)
		CHECK (length(journal_head) = 64 AND journal_head NOT GLOB '*[^0-9a-f]*'),
	commit_id TEXT                   -- the git commit this turn must become (40 hex)
		CHECK (commit_id IS NULL OR (length(commit_id) = 40 AND commit_id NOT GLOB '*[^0-9a-f]*')),
	beacon_signature TEXT CHECK (beacon_signature IS NULL -- the round's signature (drand:
		-- beacon_value = SHA256 of it); last: ALTER TABLE adds it to older journals
		OR (length(beacon_signature) BETWEEN 2 AND 1024 AND length(beacon_signature) % 2 = 0
			AND beacon_signature NOT GLOB '*[^0-9a-f]*'))
) STRICT;

CREATE TABLE orders (
	turn INTEGER NOT NULL REFERENCES turns (turn),
	player TEXT NOT NULL,
	sha256 TEXT CHECK (sha256 IS NULL OR (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')),
	bytes BLOB,                     -- the order file as received; NULL: none was sent
	PRIMARY KEY (turn, player),
	CHECK ((sha256 IS NULL) = (bytes IS NULL))
) STRICT;

CREATE TABLE dice (
	turn INTEGER NOT NULL REFERENCES turns (turn),
	idx INTEGER NOT NULL,           -- j: 0, 1, 2 ... in the order drawn
	sides INTEGER NOT NULL CHECK (sides >= 2),
	value INTEGER NOT NULL CHECK (value BETWEEN 1 AND sides),
	purpose TEXT NOT NULL,
	PRIMARY KEY (turn, idx)
) STRICT;

CREATE TABLE events (
	turn INTEGER NOT NULL REFERENCES turns (turn),
	seq INTEGER NOT NULL,           -- 0, 1, 2 ... in the order they happened
	phase TEXT NOT NULL,
	kind TEXT NOT NULL CHECK (kind IN ('event', 'void')),
	player TEXT,                    -- whose order was void; NULL for kind 'event'
	order_index INTEGER NOT NULL,   -- 1-based position of the void order; 0 for 'event'
	text TEXT NOT NULL,
	PRIMARY KEY (turn, seq),
	CHECK (kind = 'void' OR (player IS NULL AND order_index = 0)),
	CHECK (kind = 'event' OR (player IS NOT NULL AND order_index >= 0))
) STRICT;

CREATE TABLE files (
	turn INTEGER NOT NULL REFERENCES turns (turn),
	path TEXT NOT NULL CHECK (path <> '' AND path NOT GLOB '/*'),
	bytes BLOB NOT NULL,            -- exactly what the turn's git commit holds at path
	PRIMARY KEY (turn, path)
) STRICT;

CREATE TRIGGER meta_no_update BEFORE UPDATE ON meta
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER meta_no_delete BEFORE DELETE ON meta
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER meta_insert_new BEFORE INSERT ON meta
WHEN EXISTS (SELECT 1 FROM meta WHERE key = NEW.key)
BEGIN SELECT RAISE(ABORT, 'journal is append-only: meta key exists'); END;

CREATE TRIGGER turns_no_update BEFORE UPDATE ON turns
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER turns_no_delete BEFORE DELETE ON turns
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER turns_dense BEFORE INSERT ON turns
WHEN NEW.turn IS NOT (SELECT COALESCE(MAX(turn) + 1, 0) FROM turns)
BEGIN SELECT RAISE(ABORT, 'journal is append-only: turn must be the last turn + 1'); END;

CREATE TRIGGER orders_no_update BEFORE UPDATE ON orders
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER orders_no_delete BEFORE DELETE ON orders
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER orders_newest BEFORE INSERT ON orders
WHEN NEW.turn IS NOT (SELECT MAX(turn) FROM turns)
	OR EXISTS (SELECT 1 FROM orders WHERE turn = NEW.turn AND player = NEW.player)
BEGIN SELECT RAISE(ABORT, 'journal is append-only: orders rows extend the newest turn'); END;

CREATE TRIGGER dice_no_update BEFORE UPDATE ON dice
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER dice_no_delete BEFORE DELETE ON dice
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER dice_dense BEFORE INSERT ON dice
WHEN NEW.turn IS NOT (SELECT MAX(turn) FROM turns)
	OR NEW.idx IS NOT (SELECT COALESCE(MAX(idx) + 1, 0) FROM dice WHERE turn = NEW.turn)
BEGIN SELECT RAISE(ABORT, 'journal is append-only: dice rows extend the newest turn densely'); END;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER events_dense BEFORE INSERT ON events
WHEN NEW.turn IS NOT (SELECT MAX(turn) FROM turns)
	OR NEW.seq IS NOT (SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE turn = NEW.turn)
BEGIN SELECT RAISE(ABORT, 'journal is append-only: events rows extend the newest turn densely'); END;

CREATE TRIGGER files_no_update BEFORE UPDATE ON files
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER files_no_delete BEFORE DELETE ON files
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER files_newest BEFORE INSERT ON files
WHEN NEW.turn IS NOT (SELECT MAX(turn) FROM turns)
	OR EXISTS (SELECT 1 FROM files WHERE turn = NEW.turn AND path = NEW.path)
BEGIN SELECT RAISE(ABORT, 'journal is append-only: files rows extend the newest turn'); END;

-- Every order file that came by mail (`umpire inbox`), accepted or refused, in the order
-- handled: the play-by-email record of who sent what and when. Not part of any turn (the
-- turn takes the close's files), so nothing here enters the hash chain. Journals made
-- before it get the table and its triggers when journal_open first opens them.
CREATE TABLE submissions (
	seq INTEGER PRIMARY KEY NOT NULL CHECK (seq >= 1),  -- 1, 2, 3 ... in the order handled
	turn INTEGER NOT NULL CHECK (turn >= 1),            -- the open turn when it came
	player TEXT,                    -- whose orders (the sender's player); NULL: not a player
	sender TEXT NOT NULL,           -- the From address
	message_id TEXT NOT NULL,       -- the Message-ID (or sha256:HEX of the mail without one)
	mail_sha256 TEXT NOT NULL CHECK (length(mail_sha256) = 64 AND mail_sha256 NOT GLOB '*[^0-9a-f]*'),
	sha256 TEXT CHECK (sha256 IS NULL OR (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')),
	arrived_at INTEGER NOT NULL,    -- when it was delivered (the Maildir file's time), UTC s
	handled_at INTEGER NOT NULL,    -- when umpire inbox read it, UTC seconds
	verdict TEXT NOT NULL CHECK (verdict IN ('accepted', 'refused')),
	reason TEXT NOT NULL            -- '' when accepted; else the first line of the refusal
) STRICT;

CREATE TRIGGER submissions_no_update BEFORE UPDATE ON submissions
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER submissions_no_delete BEFORE DELETE ON submissions
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER submissions_dense BEFORE INSERT ON submissions
WHEN NEW.seq IS NOT (SELECT COALESCE(MAX(seq) + 1, 1) FROM submissions)
BEGIN SELECT RAISE(ABORT, 'journal is append-only: submissions are numbered densely'); END;

INSERT INTO meta (key, value) VALUES ('schema_version', '1');
