-- Several instances on one database (decisions §13).
-- cluster_locks: one row per piece of work that must happen once across instances (the first accounts
-- of an empty database, signing-key changes). An instance locks the row (select ... for update) in the
-- transaction doing the work; version counts the changes, so instances notice them with one cheap read.
create table cluster_locks (
    name    varchar(50) not null primary key,
    version bigint      not null
);
insert into cluster_locks (name, version) values ('first-start', 0);
insert into cluster_locks (name, version) values ('signing-keys', 0);

-- Key rotation: a key is published first and signs from activates_at on; retired_at is when its
-- successor took over, and it is dropped once every id_token it signed has expired.
alter table signing_keys add column activates_at timestamp with time zone;
update signing_keys set activates_at = created_at;
alter table signing_keys alter column activates_at set not null;
