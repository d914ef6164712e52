package com.example.identity.api;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.data.domain.Slice;
import org.springframework.http.HttpHeaders;

import com.example.identity.common.ListQuery;

/**
 * Paging of the management lists: {@code ?page=} (from 1), {@code ?size=} (default 50, at most 200) and
 * {@code ?q=} (search) read once each; the body keeps its documented shape, and the neighbouring pages are
 * announced in a {@code Link} header ({@code rel="next"}, {@code rel="prev"}, RFC 8288).
 */
final class ApiPaging {

    private ApiPaging() {
    }

    /** The request's page; bad paging parameters are a 400 in the API's shape ({@link ApiProblem}). */
    static ListQuery query(HttpServletRequest request) {
        try {
            return ListQuery.parse(single(request, "page"), single(request, "size"), single(request, "q"));
        }
        catch (ListQuery.InvalidListQueryException e) {
            throw ApiProblem.badRequest(e.getMessage());
        }
    }

    private static String single(HttpServletRequest request, String name) {
        String[] values = request.getParameterValues(name);
        if (values != null && values.length > 1) {
            throw new ListQuery.InvalidListQueryException("Parámetro repetido: " + name);
        }
        return values == null ? null : values[0];
    }

    static void links(HttpServletResponse response, String path, ListQuery query, Slice<?> slice) {
        List<String> links = new ArrayList<>();
        if (slice.hasNext()) {
            links.add(link(path, query, query.page() + 1, "next"));
        }
        if (query.page() > 1) {
            links.add(link(path, query, query.page() - 1, "prev"));
        }
        if (!links.isEmpty()) {
            response.setHeader(HttpHeaders.LINK, String.join(", ", links));
        }
    }

    private static String link(String path, ListQuery query, int page, String rel) {
        String target = path + "?page=" + page + "&size=" + query.size()
                + (query.searching() ? "&q=" + URLEncoder.encode(query.search(), StandardCharsets.UTF_8) : "");
        return "<" + target + ">; rel=\"" + rel + "\"";
    }
}
