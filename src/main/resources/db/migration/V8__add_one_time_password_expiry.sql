-- One-time passwords set by an admin expire (identity.one-time-password.ttl); null: the user chose the
-- password, or it is the first administrator's, which does not expire but must be changed at first login.
alter table users add column one_time_password_expires_at timestamp with time zone;
