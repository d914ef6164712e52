package com.example.identity.web;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The Content-Security-Policy of the service's pages (the web chain's, {@link WebSecurityConfig}): scripts,
 * styles and images of this origin only, forms posted to this origin only, never framed.
 * <p>
 * A page whose form leads, through redirects, to an application's address (the login form, its second
 * step, the consent page, a logout confirmation) needs that one address in {@code form-action} as well:
 * browsers apply {@code form-action} to every address of the redirect chain that follows a form's POST (CSP
 * Level 3; Chromium stops the navigation), so {@code 'self'} alone would stop a login at its last step
 * whenever the application lives on another origin. {@link #allowingFormsTo} widens it by exactly the
 * origin of that address (or the scheme of a native application's private-use redirect). An address that a
 * CSP source cannot name (an IPv6 literal such as {@code http://[::1]:8400/cb}) drops {@code form-action}
 * from that page rather than break the login.
 */
public final class PagePolicy {

    public static final String HEADER = "Content-Security-Policy";

    private static final String BEFORE = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; ";
    private static final String AFTER = "frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

    /** The pages' policy. */
    public static final String PAGES = BEFORE + "form-action 'self'; " + AFTER;

    /** A host a CSP host-source can name: letters, digits, dots and dashes (IDNs arrive as punycode). */
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9.\\-]{0,251}[A-Za-z0-9])?");
    /** A scheme (RFC 3986 §3.1), as a CSP scheme-source names it. */
    private static final Pattern SCHEME = Pattern.compile("[a-z][a-z0-9+.\\-]{0,99}");

    private PagePolicy() {
    }

    /**
     * The pages' policy with {@code form-action} also allowing {@code address}, an application's registered
     * (and already checked) redirect or post-logout address; the pages' policy unchanged when the address is
     * not one a form could reach.
     */
    public static String allowingFormsTo(String address) {
        URI uri;
        try {
            uri = new URI(address);
        }
        catch (URISyntaxException e) {
            return PAGES;
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!SCHEME.matcher(scheme).matches()) {
            return PAGES;
        }
        if (!scheme.equals("http") && !scheme.equals("https")) {
            // a native application's private-use scheme (RFC 8252 §7.1): the scheme is the whole origin
            return BEFORE + "form-action 'self' " + scheme + ":; " + AFTER;
        }
        String host = uri.getHost();
        if (host != null && host.startsWith("[")) {
            // an IPv6 loopback literal: no CSP source names it, so this page goes without form-action
            return BEFORE + AFTER;
        }
        if (host == null || !HOST.matcher(host).matches()) {
            return PAGES;
        }
        String origin = scheme + "://" + host.toLowerCase(Locale.ROOT) + (uri.getPort() == -1 ? "" : ":" + uri.getPort());
        return BEFORE + "form-action 'self' " + origin + "; " + AFTER;
    }
}
