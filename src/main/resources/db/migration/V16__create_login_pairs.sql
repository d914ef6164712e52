-- The login throttle's lasting facts (decisions §3 and §13), so that every instance knows them, one
-- started later included: the lock of an (e-mail, source address) pair and the last successful login of
-- a pair (a "known address", exempt from the account-wide and address-wide delays). A pair is stored as
-- the SHA-256 hex of "<e-mail, lower case>|<address key>", never in the clear. Counting failures stays in
-- each instance's memory, shared by messages (abuse/LoginThrottle); rows whose lock and known time have
-- both passed are deleted by the retention job.
create table login_pairs (
    pair_digest  char(64) not null primary key,
    locked_until timestamp with time zone,
    known_until  timestamp with time zone
);
