import { useSearchParams } from "react-router";
import { SignInPage } from "@/features/auth/components/SignInPage";

export function SignInRoute() {
  const [sp] = useSearchParams();
  return <SignInPage next={sp.get("next")} />;
}
