package com.example.identity.oauth.error;

import java.io.Serial;

import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;

/** An {@link OAuth2AuthenticationException} that names the row of {@link TokenError} to answer with. */
public class TokenErrorException extends OAuth2AuthenticationException {

    @Serial
    private static final long serialVersionUID = 1L;

    private final TokenError tokenError;
    private final @Nullable String detail;

    TokenErrorException(TokenError tokenError) {
        this(tokenError, null, null);
    }

    TokenErrorException(TokenError tokenError, @Nullable String detail, @Nullable Throwable cause) {
        super(new OAuth2Error(oauthCode(tokenError), tokenError.message(), null), tokenError.message(), cause);
        this.tokenError = tokenError;
        this.detail = detail;
    }

    public TokenError tokenError() {
        return tokenError;
    }

    /** For {@link TokenError#INTERNAL_ERROR}: the safe {@code detail} of the body. */
    public @Nullable String detail() {
        return detail;
    }

    /** The RFC 6749 §5.2 code behind each row, for logs and for anyone reading the exception. */
    private static String oauthCode(TokenError error) {
        return switch (error) {
            case METHOD_NOT_ALLOWED, MISSING_PARAMETERS, REPEATED_PARAMETER, REDIRECT_URI_MISMATCH -> OAuth2ErrorCodes.INVALID_REQUEST;
            case INVALID_GRANT_TYPE -> OAuth2ErrorCodes.UNSUPPORTED_GRANT_TYPE;
            case INVALID_CLIENT_ID, WRONG_CLIENT_SECRET, CLIENT_REVOKED -> OAuth2ErrorCodes.INVALID_CLIENT;
            case INVALID_CODE, CODE_ALREADY_USED, CODE_EXPIRED, INVALID_CODE_VERIFIER -> OAuth2ErrorCodes.INVALID_GRANT;
            case OIDC_KEY_MISSING, INTERNAL_ERROR -> OAuth2ErrorCodes.SERVER_ERROR;
        };
    }
}
