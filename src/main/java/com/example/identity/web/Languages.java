package com.example.identity.web;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.MessageSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.session.web.http.SessionRepositoryFilter;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.LocaleResolver;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.i18n.LocaleChangeInterceptor;

/**
 * The languages of the pages and e-mails (decisions §22, docs/languages.md): Spanish, the default, and English.
 * Texts live in {@code messages.properties} (Spanish) and {@code messages_<lang>.properties} (Spring Boot's
 * {@code MessageSource}, {@code spring.messages.*}); the language of a request is {@link PageLocaleResolver}'s;
 * {@code ?lang=} on any page switches it ({@link LocaleChangeInterceptor}); every page's model gets
 * {@code languageSwitch}, the address of the same page in the other language; the notices and errors that
 * controllers put in the model are shown in the page's language ({@link PageMessages}). The JSON answers of {@code /api/}
 * and {@code /oauth/} never read the language: their texts are constants, not messages.
 */
@Configuration(proxyBeanMethods = false)
public class Languages implements WebMvcConfigurer {

    /** The pages' languages, the default first; discovery's {@code ui_locales_supported} says the same. */
    public static final List<Locale> SUPPORTED = List.of(Locale.forLanguageTag("es"), Locale.ENGLISH);
    static final Locale DEFAULT = SUPPORTED.get(0);

    /** Stateless; the {@code localeResolver} bean and the static look-ups below share it. */
    private static final PageLocaleResolver RESOLVER = new PageLocaleResolver();

    private final MessageSource messages;

    Languages(MessageSource messages) {
        this.messages = messages;
    }

    /** {@code locale}'s language when the pages speak it, else null. */
    static Locale supportedOrNull(Locale locale) {
        if (locale == null) {
            return null;
        }
        return SUPPORTED.stream().filter(l -> l.getLanguage().equals(locale.getLanguage())).findFirst().orElse(null);
    }

    /**
     * The language of the request this thread serves, as the pages have it (a mail sent while answering it
     * included, also from a filter before the DispatcherServlet, such as the passkey registration's, where
     * {@link org.springframework.context.i18n.LocaleContextHolder} holds only the container's idea); Spanish on a
     * thread that serves no request.
     */
    public static Locale current() {
        if (RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes request) {
            return RESOLVER.resolveLocale(request.getRequest());
        }
        return DEFAULT;
    }

    /**
     * The language of {@code request}, as the pages have it, for what answers before the DispatcherServlet (the
     * outage page of ops/DatabaseOutageFilter, which runs before Spring Session: no session is read there).
     */
    public static Locale of(HttpServletRequest request) {
        return RESOLVER.resolveLocale(request);
    }

    /** Named {@code localeResolver}: the DispatcherServlet's and Spring Boot's name for it. */
    @Bean
    LocaleResolver localeResolver() {
        return RESOLVER;
    }

    @Bean
    FilterRegistrationBean<UiLocalesFilter> uiLocalesFilter() {
        FilterRegistrationBean<UiLocalesFilter> registration = new FilterRegistrationBean<>(new UiLocalesFilter());
        registration.setOrder(SessionRepositoryFilter.DEFAULT_ORDER + 1);
        registration.setDispatcherTypes(EnumSet.of(DispatcherType.REQUEST));
        return registration;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        LocaleChangeInterceptor change = new LocaleChangeInterceptor();
        change.setParamName("lang");
        change.setHttpMethods("GET");
        change.setIgnoreInvalidLocale(true);
        registry.addInterceptor(change);
        registry.addInterceptor(new SwitchLink());
        registry.addInterceptor(new PageMessages(messages));
    }

    /**
     * Adds {@code languageSwitch} to every page's model: the same page in the other language, by GET, also after a
     * form's POST ({@link SwitchTarget}).
     */
    static final class SwitchLink implements HandlerInterceptor {

        private final SwitchTarget target = new SwitchTarget();

        @Override
        public void postHandle(HttpServletRequest request, HttpServletResponse response, Object handler,
                ModelAndView page) {
            if (page == null || page.getViewName() == null || page.getViewName().startsWith("redirect:")) {
                return; // no page: a redirect, or a View of its own (web/ErrorPages' JSON)
            }
            page.addObject("languageSwitch", target.link(request, handler, current()));
        }
    }

    /**
     * The current page (path and query) with {@code lang} naming the language other than {@code current}, for a
     * page answered to a GET (or to a POST at an address that answers GET the same way, as the authorization
     * endpoint does) outside the DispatcherServlet's pages.
     */
    public static String switchLink(HttpServletRequest request, Locale current) {
        return SwitchTarget.sameAddress(request, SwitchTarget.other(current));
    }
}
