-- Indexes for the lists that grow (the admin page, /api/tokens/list.php, /api/clients/list.php): pages
-- newest first, for everyone (admins) and per owner, and substring search by e-mail, name and client id.
-- PostgreSQL's version (db/vendor/h2 has the same without the trigram indexes, which H2 does not have):
-- a search "contains" is served by pg_trgm GIN indexes (a trusted extension since PostgreSQL 13, so the
-- database's owner may create it).
create extension if not exists pg_trgm;
create index ix_api_tokens_created on api_tokens (created_at, id);
create index ix_api_tokens_user_created on api_tokens (user_id, created_at, id);
create index ix_oauth_clients_created on oauth_clients (created_at, id);
create index ix_oauth_clients_owner_created on oauth_clients (owner_id, created_at, id);
create index ix_users_correo_trgm on users using gin (correo gin_trgm_ops);
create index ix_users_nombre_trgm on users using gin (lower(primer_nombre) gin_trgm_ops);
create index ix_api_tokens_name_trgm on api_tokens using gin (lower(name) gin_trgm_ops);
create index ix_oauth_clients_name_trgm on oauth_clients using gin (lower(name) gin_trgm_ops);
create index ix_oauth_clients_client_id_trgm on oauth_clients using gin (lower(client_id) gin_trgm_ops);
