-- The device authorization grant (RFC 8628, decisions §16) for applications of type 'dispositivo':
-- consoles and TVs. POST /oauth/device.php makes a row with two secrets, kept only as SHA-256 digests: the
-- device code (256 random bits, held by the console, which polls /oauth/token.php with it) and the user
-- code (8 letters, typed by the player at /activar). A row is pending until the player approves or denies
-- it; an approved row is spent once (status 'used', one conditional UPDATE) for an authorization of
-- oauth_authorizations, the family of its refresh tokens. poll_interval grows by 5 s at each slow_down
-- (RFC 8628 §3.5); last_polled_at is when the console last asked. Rows are purged a day after they expired.
create table device_authorizations (
    id                 varchar(100) not null primary key,
    client_id          varchar(100) not null,
    device_code_digest varchar(64)  not null,
    user_code_digest   varchar(64)  not null,
    scopes             varchar(200) not null,
    created_at         timestamp with time zone not null,
    expires_at         timestamp with time zone not null,
    poll_interval      integer      not null,
    last_polled_at     timestamp with time zone,
    status             varchar(10)  not null,
    user_id            bigint,
    decided_at         timestamp with time zone,
    auth_time          timestamp with time zone,
    amr                varchar(64),
    constraint uk_device_authorizations_device_code unique (device_code_digest),
    constraint uk_device_authorizations_user_code unique (user_code_digest),
    constraint fk_device_authorizations_user foreign key (user_id) references users (id)
);
create index ix_device_authorizations_expiry on device_authorizations (expires_at);

-- A device application is never redirected to (RFC 8628): it has no redirect URI, and the authorization
-- a device code is exchanged for has neither a redirect URI nor an authorization code.
alter table oauth_clients alter column redirect_uri drop not null;
alter table oauth_authorizations alter column redirect_uri drop not null;
alter table oauth_authorizations alter column code_digest drop not null;
