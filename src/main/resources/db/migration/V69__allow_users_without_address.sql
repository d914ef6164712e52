-- Guest players (decisions §24): a guest account (rol 'invitado') has no address until it is converted into a
-- full account. correo is null for them: a unique constraint lets any number of nulls through on H2 and
-- PostgreSQL alike, so uk_users_correo still makes every real address unique (stored lower-cased), and no
-- placeholder address exists that a page, a mail or a webhook could leak. Every other account keeps its address:
-- the application sets one at every creation and never clears it.
alter table users alter column correo drop not null;
