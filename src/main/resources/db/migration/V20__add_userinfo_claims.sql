-- The claims parameter's userinfo member (decisions §12.2, OIDC Core §5.5): the known claims asked for at
-- the UserInfo endpoint (space-separated names, e.g. "name"), kept with the code and copied to the access
-- tokens issued from it, so that /oauth/userinfo.php answers from the token's cached row alone.
alter table oauth_authorizations add column userinfo_claims varchar(200);
alter table api_tokens add column userinfo_claims varchar(200);
