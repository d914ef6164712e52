-- Scopes of personal API tokens (decisions §15): 'perfil' is good for /api/userinfo.php only, 'gestion'
-- also for the management routes (/api/tokens/*, /api/clients/*). Tokens issued to OAuth clients have
-- none (their OAuth scopes are in scopes).
-- Personal tokens made before scopes existed were accepted at the management routes, and scripts may
-- depend on that: they keep working as 'gestion'. New personal tokens default to 'perfil' (the
-- application sets it; no column default, so nothing is given a scope by accident).
-- The values are checked by the application's enum converter, as kind is (V2: no CHECK constraint).
alter table api_tokens add column personal_scope varchar(10);
update api_tokens set personal_scope = 'gestion' where kind = 'personal';
