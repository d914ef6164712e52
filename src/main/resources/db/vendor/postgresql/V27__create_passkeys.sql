-- Passkeys (WebAuthn, decisions §17): the tables of Spring Security's JDBC repositories
-- (JdbcPublicKeyCredentialUserEntityRepository, JdbcUserCredentialRepository), as its schema files
-- define them; binary columns are bytea here (the one difference between H2 and PostgreSQL). A user
-- entity's name is the account's e-mail (the login name); a credential holds a public key only.
create table user_entities (
    id           varchar(1000) not null,
    name         varchar(100)  not null,
    display_name varchar(200),
    primary key (id)
);
create index ix_user_entities_name on user_entities (name);

create table user_credentials (
    credential_id                varchar(1000) not null,
    user_entity_user_id          varchar(1000) not null,
    public_key                   bytea        not null,
    signature_count              bigint,
    uv_initialized               boolean,
    backup_eligible              boolean       not null,
    authenticator_transports     varchar(1000),
    public_key_credential_type   varchar(100),
    backup_state                 boolean       not null,
    attestation_object           bytea,
    attestation_client_data_json bytea,
    created                      timestamp,
    last_used                    timestamp,
    label                        varchar(1000) not null,
    primary key (credential_id)
);
create index ix_user_credentials_user on user_credentials (user_entity_user_id);
