-- Back-Channel Logout 1.0 (issue 28), at no cost to the code flow: the login session's sid is a column of the
-- authorization, written by the code's INSERT and read by the exchange's join (oauth/store/CodeStatements), instead
-- of a table of its own that cost the flow a read and an insert at the authorization request and a read at the
-- exchange (token/QueryCountIT). The table's rows were never purged; these follow the authorizations' retention.
alter table oauth_authorizations add column sid varchar(64);
create index ix_oauth_authorizations_sid on oauth_authorizations (sid);
drop table backchannel_logout_sessions;
