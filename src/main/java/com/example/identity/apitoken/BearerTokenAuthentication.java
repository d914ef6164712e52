package com.example.identity.apitoken;

import java.io.Serial;
import java.util.List;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;

/**
 * A request authenticated by an API token. A personal token carries its owner's role, so the management
 * routes accept it; a token issued to an OAuth client carries no role: it is good for
 * {@code /api/userinfo.php} only (decisions §11).
 */
public class BearerTokenAuthentication extends AbstractAuthenticationToken {

    @Serial
    private static final long serialVersionUID = 1L;

    private final TokenOwner owner;

    public BearerTokenAuthentication(TokenOwner owner) {
        super(authorities(owner));
        this.owner = owner;
        setAuthenticated(true);
    }

    private static List<GrantedAuthority> authorities(TokenOwner owner) {
        return owner.kind() == TokenKind.PERSONAL ? List.of(owner.rol().authority()) : List.of();
    }

    public TokenOwner owner() {
        return owner;
    }

    @Override
    public Object getCredentials() {
        return "";
    }

    @Override
    public Object getPrincipal() {
        return owner;
    }

    @Override
    public String getName() {
        return "user:" + owner.userId();
    }
}
