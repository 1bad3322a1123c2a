-- The durable state of `mrlocal serve` (tools/serve/service_store.h): API keys, queues with
-- their budgets and rates, every deposit, rate change and charge, and every job. Applied at
-- each start of the server, so every statement is idempotent (IF NOT EXISTS); a change to a
-- table that exists needs a migration in service_store.cc and a higher user_version below.
--
-- Money is in integer micro-credits (sched/core/queue_spec.h), never floating point, so
-- that for every queue sum(deposits.amount) = queues.budget + sum(charges.amount) holds
-- exactly (ServiceStore::CheckInvariant). Times are Unix milliseconds. STRICT tables (SQLite
-- 3.37 or later) refuse a value of the wrong type rather than storing it.
--
-- Names (key ids, queue names) are [A-Za-z0-9_.-]{1,64}, checked by the store. Rows that
-- record who did something (by_key, jobs.owner) name a key without a foreign key: removing
-- a key must not rewrite the history of what it did.

-- Budget is what is left to spend: deposits add to it, charges draw on it, in the same
-- transaction as the row that records them. Rate is what the queue bids per slot and
-- allocation interval (the paper's spending rate). 10^18 micro-credits = 10^12 credits,
-- sched/core/queue_spec.h's kMaxCredits.
CREATE TABLE IF NOT EXISTS queues (
  name TEXT PRIMARY KEY NOT NULL,
  rate INTEGER NOT NULL CHECK (rate BETWEEN 0 AND 1000000000000000000),
  budget INTEGER NOT NULL CHECK (budget BETWEEN 0 AND 1000000000000000000),
  created_ms INTEGER NOT NULL
) STRICT;

-- The API keys. The secret is the HMAC key of request signing (tools/serve/
-- request_signing.h): this file is therefore created 0600, readable by the server only.
CREATE TABLE IF NOT EXISTS keys (
  id TEXT PRIMARY KEY NOT NULL,
  secret BLOB NOT NULL CHECK (length(secret) = 32),
  role TEXT NOT NULL CHECK (role IN ('admin', 'owner', 'reader')),
  -- An owner's queue; NULL for admin and reader keys.
  queue TEXT REFERENCES queues (name),
  created_ms INTEGER NOT NULL,
  CHECK ((role = 'owner') = (queue IS NOT NULL))
) STRICT;

CREATE TABLE IF NOT EXISTS deposits (
  id INTEGER PRIMARY KEY,
  queue TEXT NOT NULL REFERENCES queues (name),
  amount INTEGER NOT NULL CHECK (amount > 0),
  at_ms INTEGER NOT NULL,
  by_key TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS deposits_by_queue ON deposits (queue, id, amount);

-- Every rate a queue has had, its first at creation: the statement shows rates over time.
CREATE TABLE IF NOT EXISTS rate_changes (
  id INTEGER PRIMARY KEY,
  queue TEXT NOT NULL REFERENCES queues (name),
  rate INTEGER NOT NULL CHECK (rate BETWEEN 0 AND 1000000000000000000),
  at_ms INTEGER NOT NULL,
  by_key TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS rate_changes_by_queue ON rate_changes (queue, id);

-- What a queue paid for an allocation interval [start_ms, end_ms): slot_s slot-seconds at
-- `price` micro-credits, `amount` in all. job 0: no job (not NULL, which UNIQUE would let
-- repeat). The UNIQUE constraint, not a lookup, is what keeps a charge from being counted
-- twice, say when a restarted scheduler records an interval again.
CREATE TABLE IF NOT EXISTS charges (
  id INTEGER PRIMARY KEY,
  queue TEXT NOT NULL REFERENCES queues (name),
  job INTEGER NOT NULL CHECK (job >= 0),
  start_ms INTEGER NOT NULL,
  end_ms INTEGER NOT NULL CHECK (end_ms >= start_ms),
  slot_s REAL NOT NULL CHECK (slot_s >= 0),
  price INTEGER NOT NULL CHECK (price >= 0),
  amount INTEGER NOT NULL CHECK (amount >= 0),
  UNIQUE (queue, job, start_ms)
) STRICT;
-- The statement in order, and a queue's total charged read from the index alone.
CREATE INDEX IF NOT EXISTS charges_by_queue ON charges (queue, id, amount);

-- maps, reduces, report and exit_code (added in version 2): its tasks, once its input is
-- split; once it has ended, what a local run of it would print on stdout (tools/runtime/
-- closing_report.h) and exit with (tools/runtime/exit_codes.h), for `mrlocal submit --wait`.
-- AUTOINCREMENT: a job id is never reused, even after the newest job's row is gone, so an
-- id a user holds always means the same job.
CREATE TABLE IF NOT EXISTS jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  owner TEXT NOT NULL,
  queue TEXT NOT NULL REFERENCES queues (name),
  app TEXT NOT NULL,
  request TEXT NOT NULL,  -- the submission, JSON
  phase TEXT NOT NULL
    CHECK (phase IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'rejected')),
  message TEXT NOT NULL DEFAULT '',
  submitted_ms INTEGER NOT NULL,
  started_ms INTEGER NOT NULL DEFAULT 0,  -- 0: not yet
  finished_ms INTEGER NOT NULL DEFAULT 0,  -- 0: not yet
  output TEXT NOT NULL DEFAULT '',
  maps INTEGER NOT NULL DEFAULT 0,
  reduces INTEGER NOT NULL DEFAULT 0,
  report TEXT NOT NULL DEFAULT '',
  exit_code INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX IF NOT EXISTS jobs_by_owner ON jobs (owner, id);
-- The unfinished jobs a restarted server takes up, and the counts by phase.
CREATE INDEX IF NOT EXISTS jobs_by_phase ON jobs (phase, id);

-- The schema's version: a server refuses a database of a newer one.
PRAGMA user_version = 2;
