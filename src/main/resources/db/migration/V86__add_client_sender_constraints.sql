-- Issue 46 (decisions §28): an application may require pushed authorization requests (RFC 9126,
-- par_obligatorio) and DPoP-bound tokens (RFC 9449, dpop_obligatorio). Existing applications require neither.
alter table oauth_clients add column par_required boolean default false not null;
alter table oauth_clients add column dpop_required boolean default false not null;
