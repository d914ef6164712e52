-- Issue 46 (decisions §28, RFC 9449): the JWK SHA-256 thumbprint (RFC 7638, 43 base64url characters) of the DPoP
-- key a token is bound to; null for an unbound (Bearer) token. An access token bound to a key is good only with a
-- proof of that key (Authorization: DPoP); a public client's refresh token bound to one is refreshed only with it.
alter table api_tokens add column dpop_jkt varchar(43);
alter table refresh_tokens add column dpop_jkt varchar(43);
