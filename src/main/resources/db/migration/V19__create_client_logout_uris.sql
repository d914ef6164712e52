-- RP-initiated logout (decisions §12.7): the post_logout_redirect_uris an application registered, to
-- which /oauth/logout.php may send the browser back. Matched byte for byte, like redirect_uri.
create table oauth_client_logout_uris (
    client_id varchar(100)  not null,
    uri       varchar(2000) not null,
    constraint pk_oauth_client_logout_uris primary key (client_id, uri),
    constraint fk_oauth_client_logout_uris_client foreign key (client_id) references oauth_clients (client_id)
);
