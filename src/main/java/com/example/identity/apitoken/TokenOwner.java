package com.example.identity.apitoken;

import java.io.Serial;
import java.io.Serializable;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import com.example.identity.account.Role;

/**
 * A valid token and the profile of its owner: what the bearer filter and {@code /api/userinfo.php} need.
 * {@code personalScope} is set for personal tokens only; {@code clientId} and {@code scopes} for tokens
 * issued to an OAuth client only; {@code userInfoClaims} are the known claims that the authorization's
 * {@code claims} parameter asked for at the UserInfo endpoint (empty for most tokens); {@code dpopJkt} the thumbprint
 * of the DPoP key a token issued to a client is bound to (RFC 9449, decisions §28), null for an unbound token.
 */
public record TokenOwner(long tokenId, long userId, String primerNombre, String correo, Role rol, TokenKind kind,
        @Nullable TokenScope personalScope, @Nullable String clientId, Set<String> scopes,
        @Nullable String authorizationId, Set<String> userInfoClaims, boolean emailVerified, @Nullable String dpopJkt)
        implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * Whether the token may be used at the management routes (decisions §11, §15): a personal token of
     * scope {@code gestion} of a {@code developer_api} or {@code admin} user.
     */
    public boolean mayManage() {
        return kind == TokenKind.PERSONAL && personalScope == TokenScope.GESTION && rol.isDeveloper();
    }

    /** Whether the token is bound to a DPoP key: good only as {@code Authorization: DPoP} with a proof of that key. */
    public boolean isSenderConstrained() {
        return dpopJkt != null;
    }
}
