-- Read-only views that an owner publishes for other packages to read in the same statement as their own rows
-- (issue 41, docs/architecture.md "Published views"). account/ owns users and publishes account_principals: what
-- a bearer token's validation (apitoken/) and a code exchange (oauth/store/) need of the account, never its password
-- hash. client/ owns oauth_clients and publishes client_revocations: whether an application is revoked. Readers
-- select from them; only the owner's migrations change them, and a change to users or oauth_clients that touches
-- one of these columns recreates the view in the same migration (PostgreSQL refuses to alter a column a view uses).
-- Both are plain projections of one table: PostgreSQL inlines them and H2 reads them through the table's
-- indexes, so the two hot paths keep one statement and one index lookup each.
create view account_principals as
    select id, primer_nombre, correo, rol, enabled, password_change_required, email_verified from users;

create view client_revocations as
    select client_id, revoked_at from oauth_clients;
