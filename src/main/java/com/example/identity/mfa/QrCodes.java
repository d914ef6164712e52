package com.example.identity.mfa;

import java.util.Map;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.EncodeHintType;
import com.google.zxing.WriterException;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.qrcode.QRCodeWriter;
import com.google.zxing.qrcode.decoder.ErrorCorrectionLevel;

/**
 * QR codes drawn on the server (ZXing) as inline SVG: the enrolment page shows the {@code otpauth://} URI
 * without any external service, script or image request. The SVG is made here from the code's modules
 * only, so no text of the request ever reaches it.
 */
final class QrCodes {

    private QrCodes() {
    }

    static String svg(String content) {
        BitMatrix matrix;
        try {
            matrix = new QRCodeWriter().encode(content, BarcodeFormat.QR_CODE, 0, 0,
                    Map.of(EncodeHintType.ERROR_CORRECTION, ErrorCorrectionLevel.M, EncodeHintType.MARGIN, 4));
        }
        catch (WriterException e) {
            throw new IllegalArgumentException("not encodable as a QR code", e);
        }
        int size = matrix.getWidth();
        StringBuilder path = new StringBuilder();
        for (int y = 0; y < matrix.getHeight(); y++) {
            for (int x = 0; x < size; x++) {
                if (matrix.get(x, y)) {
                    path.append('M').append(x).append(' ').append(y).append("h1v1h-1z");
                }
            }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + size + " " + matrix.getHeight()
                + "\" width=\"240\" height=\"240\" shape-rendering=\"crispEdges\" aria-hidden=\"true\" "
                + "id=\"totp-qr\">"
                + "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/><path fill=\"#000\" d=\"" + path + "\"/></svg>";
    }
}
