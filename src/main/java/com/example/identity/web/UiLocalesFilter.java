package com.example.identity.web;

import java.io.IOException;
import java.util.Locale;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.Endpoints;

/**
 * OpenID Connect's {@code ui_locales} (Core §3.1.2.1) at the authorization endpoint: the first language of the
 * space-separated list that the pages speak is kept in the session, so the login, sign-up and consent pages that
 * follow speak it ({@link PageLocaleResolver}). A list naming none of them changes nothing. Runs after Spring
 * Session's filter (the session is the shared one) and before the chains, which send a visitor to the login.
 */
final class UiLocalesFilter extends OncePerRequestFilter {

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !Endpoints.AUTHORIZE.equals(request.getRequestURI().substring(request.getContextPath().length()));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String asked = firstSupported(request.getParameter("ui_locales"));
        if (asked != null) {
            HttpSession session = request.getSession();
            if (!asked.equals(session.getAttribute(PageLocaleResolver.UI_LOCALE))) {
                session.setAttribute(PageLocaleResolver.UI_LOCALE, asked);
            }
        }
        chain.doFilter(request, response);
    }

    /** The first tag of {@code uiLocales} (BCP 47, space-separated) in a supported language, or null. */
    static String firstSupported(String uiLocales) {
        if (uiLocales == null || uiLocales.length() > 200) {
            return null;
        }
        for (String tag : uiLocales.trim().split(" +")) {
            Locale supported = Languages.supportedOrNull(Locale.forLanguageTag(tag));
            if (supported != null) {
                return supported.getLanguage();
            }
        }
        return null;
    }
}
