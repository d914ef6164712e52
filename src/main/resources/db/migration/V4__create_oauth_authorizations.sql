-- Authorizations granted at /oauth/authorize.php and their authorization codes (specification §2.4).
-- The code is kept only as its SHA-256 digest; code_used_at is the used marker, set once, atomically.
create table oauth_authorizations (
    id                    varchar(100)  not null primary key,
    client_id             varchar(100)  not null,
    user_id               bigint        not null,
    scopes                varchar(200)  not null,
    redirect_uri          varchar(2000) not null,
    nonce                 varchar(512),
    code_challenge        varchar(128),
    code_challenge_method varchar(10),
    code_digest           varchar(64)   not null,
    code_issued_at        timestamp with time zone not null,
    code_expires_at       timestamp with time zone not null,
    code_used_at          timestamp with time zone,
    auth_time             timestamp with time zone not null,
    constraint uk_oauth_authorizations_code unique (code_digest),
    constraint fk_oauth_authorizations_user foreign key (user_id) references users (id)
);
create index ix_oauth_authorizations_expiry on oauth_authorizations (code_expires_at);
