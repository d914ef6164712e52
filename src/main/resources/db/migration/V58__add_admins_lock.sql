-- The 'admins' row of cluster_locks (V15): every change that may leave fewer enabled admins (a role changed, an
-- account disabled or deleted, by an admin or by the person) takes it first in its own transaction, then counts
-- the enabled admins that would remain, so two admins demoting each other (or deleting their own accounts) at the
-- same moment on any instances can never leave none (account/Admins, issue 39).
insert into cluster_locks (name, version) values ('admins', 0);
