-- Guest players (decisions §24): an application of type 'nativa' or 'dispositivo' may accept guests, accounts
-- that POST /oauth/invitado.php makes without an address (oauth/guest/). False for every application so far, and
-- for every new one unless the developer ticks the dashboard's box or sends invitados=true.
alter table oauth_clients add column guests boolean default false not null;
