-- Issue 46 (decisions §28, RFC 9126): authorization requests pushed to /oauth/par.php. The request_uri handed to
-- the client is urn:ietf:params:oauth:request_uri:<256 random bits>; only the SHA-256 digest of that random part is
-- kept. parameters is the pushed request as the client sent it (application/x-www-form-urlencoded, without the
-- client's credentials). One use: the authorization endpoint deletes the row when it takes the request, on any
-- instance. expires_at is 60 s after the push; expired rows are purged by the retention job.
create table pushed_authorization_requests (
    request_digest varchar(64)   not null primary key,
    client_id      varchar(100)  not null,
    parameters     varchar(16384) not null,
    created_at     timestamp with time zone not null,
    expires_at     timestamp with time zone not null
);
create index ix_pushed_authorization_requests_expiry on pushed_authorization_requests (expires_at);
