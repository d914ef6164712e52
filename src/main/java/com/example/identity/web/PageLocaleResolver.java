package com.example.identity.web;

import java.util.Locale;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import org.springframework.context.i18n.LocaleContext;
import org.springframework.web.servlet.i18n.CookieLocaleResolver;

/**
 * The pages' language (decisions §22), in this order: the {@code ui_locales} of the authorization request this
 * session is answering ({@link UiLocalesFilter} keeps it in the session through the login, sign-up and consent);
 * the language switch of every page ({@code ?lang=}, kept in the {@code lang} cookie); the {@code Accept-Language}
 * header's first supported language; Spanish. Only {@link Languages#SUPPORTED} languages come out of it, so a
 * cookie or header naming another one never reaches the templates; a {@code lang} cookie that is no language tag
 * at all is skipped as if absent.
 */
final class PageLocaleResolver extends CookieLocaleResolver {

    /** The session attribute holding the language the authorization request asked for. */
    static final String UI_LOCALE = PageLocaleResolver.class.getName() + ".UI_LOCALE";

    PageLocaleResolver() {
        super("lang");
        setCookieMaxAge(java.time.Duration.ofDays(365));
        setCookieHttpOnly(true);
        setCookieSameSite("Lax");
        // a cookie that names no language (one planted by a sibling subdomain, say) is ignored, never a 500
        setRejectInvalidCookies(false);
        setDefaultLocaleFunction(PageLocaleResolver::fromHeader);
    }

    @Override
    public Locale resolveLocale(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session != null && session.getAttribute(UI_LOCALE) instanceof String asked) {
            return Locale.forLanguageTag(asked);
        }
        Locale chosen = Languages.supportedOrNull(super.resolveLocale(request));
        return chosen == null ? fromHeader(request) : chosen; // a cookie naming another language: as if absent
    }

    /** What the DispatcherServlet asks for (and puts in LocaleContextHolder): the same language, in this order. */
    @Override
    public LocaleContext resolveLocaleContext(HttpServletRequest request) {
        Locale locale = resolveLocale(request);
        return () -> locale;
    }

    /** The switch: the cookie remembers it, and it outranks the authorization request's wish from now on. */
    @Override
    public void setLocale(HttpServletRequest request, HttpServletResponse response, Locale locale) {
        Locale chosen = Languages.supportedOrNull(locale);
        super.setLocale(request, response, chosen);
        HttpSession session = request.getSession(false);
        if (session != null && session.getAttribute(UI_LOCALE) != null) {
            session.removeAttribute(UI_LOCALE);
        }
    }

    /** {@code Accept-Language}'s first supported language, by the header's order of preference; else Spanish. */
    private static Locale fromHeader(HttpServletRequest request) {
        if (request.getHeader("Accept-Language") == null) {
            return Languages.DEFAULT; // the container would answer with the server's own locale
        }
        var locales = request.getLocales();
        while (locales.hasMoreElements()) {
            Locale supported = Languages.supportedOrNull(locales.nextElement());
            if (supported != null) {
                return supported;
            }
        }
        return Languages.DEFAULT;
    }
}
