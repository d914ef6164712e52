-- Issue 46 (decisions §28, RFC 9449 §11.1): the DPoP proofs already accepted, so that a replayed proof is refused
-- on every instance: proof_digest is the SHA-256 of the proof key's thumbprint and the proof's jti; the primary key
-- makes "first use wins" atomic. A row is kept while its proof could still be accepted (iat + 60 s, expires_at)
-- and purged after (dpop/SeenProofs). PostgreSQL's twin of this migration makes the table UNLOGGED.
create table dpop_proofs (
    proof_digest varchar(64) not null primary key,
    expires_at   timestamp with time zone not null
);
create index ix_dpop_proofs_expiry on dpop_proofs (expires_at);
