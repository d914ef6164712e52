-- OpenID Connect authentication request parameters (decisions §12.2): how the user logged in (RFC 8176
-- amr values, space-separated, e.g. "pwd") and the id_token claims asked for with the claims parameter
-- (space-separated claim names this server knows, e.g. "email"), both kept with the code for the id_token.
alter table oauth_authorizations add column amr varchar(64);
alter table oauth_authorizations add column id_token_claims varchar(200);
