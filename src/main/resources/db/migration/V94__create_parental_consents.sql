-- Parental consent (decisions §27, minors/ParentalConsents). A sign-up under identity.minors.consent-age also gave
-- a parent's address (pending_registrations.correo_tutor, until its link is used); the child's account then has a
-- row here: estado 'pendiente' with the digest of the single-use link mailed to the parent (request_digest, valid
-- until expires_at, 7 days), 'concedido' once the parent said yes (withdraw_digest: the link of the confirmation
-- mail that withdraws it), 'retirado' once withdrawn (the account is disabled). A refusal, or no answer by
-- expires_at, deletes the account through the ordinary deletion, which removes this row (foreign key to users).
-- Only SHA-256 digests of the links (256 random bits) are stored. language: the sign-up page's, for the mails.
alter table pending_registrations add column correo_tutor varchar(254);
create table parental_consents (
    user_id         bigint       not null primary key references users (id),
    correo_tutor    varchar(254) not null,
    estado          varchar(16)  not null,
    language        varchar(16)  not null,
    request_digest  varchar(64),
    withdraw_digest varchar(64),
    requested_at    timestamp with time zone not null,
    expires_at      timestamp with time zone not null,
    decided_at      timestamp with time zone,
    constraint uk_parental_consents_request unique (request_digest),
    constraint uk_parental_consents_withdraw unique (withdraw_digest)
);
create index ix_parental_consents_expiry on parental_consents (estado, expires_at);
create index ix_parental_consents_tutor on parental_consents (correo_tutor, requested_at);
-- the mails to one parent's address an hour are counted under this row, on every instance
insert into cluster_locks (name, version) values ('parental-consents', 0);
