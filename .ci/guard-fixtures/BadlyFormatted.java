package dev.protomolt.guard;

/** Deliberately misformatted: four-space indentation and a cramped signature. */
public final class BadlyFormatted {
    public static int twice(int x){ return 2*x; }
}
