-- Issue 29 (decisions §21, docs/webhooks.md): an application's webhook. One per application: the address events are
-- POSTed to, and the signing secret (Standard Webhooks: "whsec_" + base64 of 32 random bytes). The secret is kept
-- as it was made, not as a digest: each delivery's HMAC-SHA256 is keyed with it (docs/decisions.md D37).
create table webhook_endpoints (
    client_id  varchar(100)  not null primary key,
    url        varchar(2000) not null,
    secret     varchar(100)  not null,
    created_at timestamp with time zone not null,
    constraint fk_webhook_endpoints_client foreign key (client_id) references oauth_clients (client_id)
);
