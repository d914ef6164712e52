-- A sign-up that a login with another provider started (decisions §19, docs/decisions.md D38): Steam gives no
-- address, so the person types one at /registro and the mailed link creates the account and links this identity:
-- the provider's id ('steam') and its subject (the SteamID64), keyed by the sign-up's token digest
-- (pending_registrations.token_digest; no foreign key: that table comes in V41, after this script on a new
-- database). Rows go with their sign-up (registration/Registrations' purge).
create table pending_identities (
    token_digest varchar(64)  not null,
    provider     varchar(64)  not null,
    subject      varchar(255) not null,
    expires_at   timestamp with time zone not null,
    constraint pk_pending_identities primary key (token_digest)
);
create index ix_pending_identities_expiry on pending_identities (expires_at);
