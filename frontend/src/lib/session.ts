import { createContext, useContext } from "react";
import type { Schemas } from "@/api/types";

export type SignedInUser = Schemas["UserRead"];

/**
 * The signed-in user (null: nobody), provided once by the app shell from the auth feature, so
 * that features needing it (acknowledge, cancel, run) do not import another feature.
 */
export const SessionContext = createContext<SignedInUser | null>(null);

/** The signed-in user, or null. */
export const useSignedInUser = (): SignedInUser | null => useContext(SessionContext);
