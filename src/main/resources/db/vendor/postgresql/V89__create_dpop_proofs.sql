-- Issue 46 (decisions §28, RFC 9449 §11.1): the DPoP proofs already accepted, so that a replayed proof is refused
-- on every instance: proof_digest is the SHA-256 of the proof key's thumbprint and the proof's jti; the primary key
-- makes "first use wins" atomic. A row is kept while its proof could still be accepted (iat + 60 s, expires_at)
-- and purged after (dpop/SeenProofs).
-- UNLOGGED: one insert per DPoP request to a protected resource, so no write-ahead log and no fsync at its commit
-- (a transaction that wrote only unlogged rows commits without flushing the WAL). The price: after a crash of the
-- database server the table starts empty, and proofs of the last 60 s before it could be replayed once; a standby
-- has no copy (after a failover the same minute). docs/decisions.md D45 weighs it.
create unlogged table dpop_proofs (
    proof_digest varchar(64) not null primary key,
    expires_at   timestamp with time zone not null
);
create index ix_dpop_proofs_expiry on dpop_proofs (expires_at);
