package com.example.identity.web;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpMethod;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * Where a page's language switch leads: the same page in the other language, always by GET (the switch is a link,
 * and {@code ?lang=} is read on GET only).
 * <ul>
 * <li>A page answered to a GET: the same address, its query kept.</li>
 * <li>A page answered to a form's POST at an address that also answers GET (the login, the reset form, the
 *     sign-up): that address, with the parameters that say which page it is ({@link #CARRIED}: a mailed link's
 *     {@code token}, the authorization request's {@code redirect}, a console's {@code user_code}) taken from the
 *     form, since a POST's address has no query.</li>
 * <li>A page answered to a POST-only address ({@code /dashboard/clients/create}, {@code /cuenta/nombre}): the
 *     page that holds the form, a GET of the same controller ({@link #pageOf}: {@code /cuenta/seguridad/totp/codigos}
 *     to {@code /cuenta/seguridad/totp}, {@code /dashboard/clients/create} to {@code /dashboard/developer.php}).
 *     What the POST showed once (a new secret) is not shown again.</li>
 * <li>Anything else (an error page after a POST-only address): the home page.</li>
 * </ul>
 */
final class SwitchTarget {

    /** The parameters of a form that say which page it came from. */
    static final List<String> CARRIED = List.of("token", "redirect", "user_code");

    /** For each POST handler, the GET path of the page that holds its form (empty: none found). */
    private final Map<Method, Optional<String>> pages = new ConcurrentHashMap<>();

    /** The address of this request's page with {@code lang} naming the language other than {@code current}. */
    String link(HttpServletRequest request, Object handler, Locale current) {
        String other = other(current);
        String method = request.getMethod();
        if (HttpMethod.GET.matches(method) || HttpMethod.HEAD.matches(method)) {
            return sameAddress(request, other);
        }
        Object forwarded = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        if (forwarded != null || !(handler instanceof HandlerMethod form)) {
            return home(other);
        }
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (answersGet(form.getBeanType(), path)) {
            var link = UriComponentsBuilder.fromPath(path);
            for (String name : CARRIED) {
                String value = request.getParameter(name);
                if (value != null) {
                    link.queryParam(name, value);
                }
            }
            return link.queryParam("lang", other).encode().build().toUriString();
        }
        return pages.computeIfAbsent(form.getMethod(), m -> pageOf(form.getBeanType(), path))
                .map(page -> UriComponentsBuilder.fromPath(page).queryParam("lang", other).encode().build().toUriString())
                .orElseGet(() -> home(other));
    }

    /** The current page (path and query) with {@code lang} naming the language other than {@code current}. */
    static String sameAddress(HttpServletRequest request, String other) {
        Object forwarded = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        String path = forwarded instanceof String uri ? uri : request.getRequestURI();
        String query = forwarded instanceof String ? null : request.getQueryString();
        try {
            return UriComponentsBuilder.fromPath(path).query(query).replaceQueryParam("lang", other).build(true)
                    .toUriString();
        }
        catch (IllegalArgumentException e) { // an address not encoded as it should be: the page alone
            return "?lang=" + other;
        }
    }

    static String other(Locale current) {
        return current.getLanguage().equals("en") ? "es" : "en";
    }

    private static String home(String other) {
        return "/?lang=" + other;
    }

    /** Whether {@code controller} answers GET at exactly {@code path}. */
    private static boolean answersGet(Class<?> controller, String path) {
        return getPaths(controller).contains(path);
    }

    /**
     * The page of {@code controller} that holds the form posted to {@code path}: its GET path that is the nearest
     * ancestor of {@code path} ({@code /cuenta/seguridad} for {@code /cuenta/seguridad/sesiones/cerrar}, {@code
     * /cuenta/} for {@code /cuenta/nombre}); with none, its GET path sharing the most leading segments
     * ({@code /dashboard/developer.php} for {@code /dashboard/tokens/create}); none for a controller with no page.
     */
    private static Optional<String> pageOf(Class<?> controller, String path) {
        String ancestor = null;
        String nearest = null;
        int nearestShared = -1;
        for (String page : getPaths(controller)) {
            if (page.contains("{")) {
                continue; // a page that needs a value the POST does not give
            }
            int shared = sharedSegments(page, path);
            if (shared == segments(page).length && (ancestor == null || segments(page).length > segments(ancestor).length
                    || segments(page).length == segments(ancestor).length && page.length() > ancestor.length())) {
                ancestor = page; // of /cuenta and /cuenta/, the one the pages link to
            }
            if (shared > nearestShared) {
                nearest = page;
                nearestShared = shared;
            }
        }
        return Optional.ofNullable(ancestor != null ? ancestor : nearest);
    }

    private static String[] segments(String path) {
        return path.split("/");
    }

    private static int sharedSegments(String page, String path) {
        String[] a = segments(page);
        String[] b = segments(path);
        int n = 0;
        while (n < a.length && n < b.length && a[n].equals(b[n])) {
            n++;
        }
        return n;
    }

    /** The paths {@code controller}'s handler methods answer by GET ({@code @GetMapping}, {@code @RequestMapping}). */
    private static List<String> getPaths(Class<?> controller) {
        List<String> paths = new ArrayList<>();
        for (Method method : controller.getDeclaredMethods()) {
            RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(method, RequestMapping.class);
            if (mapping != null && (mapping.method().length == 0 || List.of(mapping.method()).contains(RequestMethod.GET))) {
                paths.addAll(List.of(mapping.path()));
            }
        }
        return paths;
    }
}
