-- Application types (decisions §16): 'web' (confidential, a secret: every application so far), 'nativa'
-- (a public client of RFC 8252: game launchers, desktop and mobile apps; no secret, PKCE S256 required,
-- loopback or private-use-scheme redirect URIs) and, later, 'dispositivo'. A public client has no secret.
alter table oauth_clients add column client_type varchar(12) default 'web' not null;
alter table oauth_clients alter column secret_digest drop not null;
