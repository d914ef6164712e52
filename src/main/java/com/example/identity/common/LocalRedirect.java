package com.example.identity.common;

import org.jspecify.annotations.Nullable;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The rule for the {@code redirect} parameter of {@code /login/} (decisions §3): only a local path is
 * followed, so the login page can never send a user to another site (no open redirect).
 */
public final class LocalRedirect {

    /**
     * Longest {@code redirect} value carried along: an authorization request with the longest
     * redirect URI (2000), state (1024) and nonce (512) the server accepts, percent-encoded, fits.
     */
    public static final int MAX_LENGTH = 8192;

    private LocalRedirect() {
    }

    /**
     * A local path starts with exactly one {@code /}, has no scheme, no {@code //} at its start, no
     * backslash (browsers read {@code /\host} as {@code //host}) and no control or space character
     * (browsers drop tabs and newlines, so {@code /\t/host} would become {@code //host}).
     */
    public static boolean isLocalPath(@Nullable String redirect) {
        if (redirect == null || redirect.isEmpty() || redirect.length() > MAX_LENGTH) {
            return false;
        }
        if (redirect.charAt(0) != '/' || (redirect.length() > 1 && redirect.charAt(1) == '/')) {
            return false;
        }
        for (int i = 0; i < redirect.length(); i++) {
            char c = redirect.charAt(i);
            if (c == '\\' || c <= 0x20 || c == 0x7f) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code path?flag=1&redirect=<redirect, percent-encoded>}: the way to a page that will send the user
     * on to {@code redirect} afterwards. The flag is left out when null, the redirect when it is not a
     * local path.
     */
    public static String pageWithRedirect(String path, @Nullable String flag, @Nullable String redirect) {
        var target = UriComponentsBuilder.fromPath(path);
        if (flag != null) {
            target.queryParam(flag, "1");
        }
        if (!isLocalPath(redirect)) {
            return target.build().toUriString();
        }
        return target.queryParam("redirect", "{redirect}").encode().buildAndExpand(redirect).toUriString();
    }

    /** {@code redirect} when it is a local path, else {@code null}. */
    public static @Nullable String orNull(@Nullable String redirect) {
        return isLocalPath(redirect) ? redirect : null;
    }
}
