-- The guessing budget of /activar (device flow, decisions §16): how many wrong user codes one source
-- address, and one account, may still type. One row per key, the SHA-256 hex of "direccion <address key>"
-- or "cuenta <user id>", never the address in the clear. The budget is a GCRA (a token bucket written as
-- one time): next_free_ms is the "theoretical arrival time" in epoch milliseconds; a try is allowed while
-- greatest(next_free_ms, now) + interval <= now + period, and taking it adds one interval, in one
-- conditional UPDATE, so parallel requests on any instance never take more than the budget
-- (device/UserCodeGuesses). A row whose next_free_ms has passed is a full budget, the same as no row: the
-- retention job deletes it.
create table user_code_budgets (
    key_digest   char(64) not null primary key,
    next_free_ms bigint   not null
);
create index ix_user_code_budgets_next_free on user_code_budgets (next_free_ms);
