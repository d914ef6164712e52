-- OpenID 2.0 response nonces already accepted (Steam's login, federation/SteamAssertions; OpenID
-- Authentication 2.0 §11.3): an answer whose openid.response_nonce is here is a replay. In the database, so that
-- a replay is refused at any instance; the primary key makes "first use wins" atomic. Rows are purged once their
-- nonce is too old to be accepted anyway (received_at).
create table openid_nonces (
    endpoint    varchar(255) not null,
    nonce       varchar(255) not null,
    received_at timestamp with time zone not null,
    constraint pk_openid_nonces primary key (endpoint, nonce)
);
create index ix_openid_nonces_received on openid_nonces (received_at);
