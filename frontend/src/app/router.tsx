import { createBrowserRouter } from "react-router";
import { Layout } from "@/app/Layout";
import { AdminRoute } from "@/routes/admin";
import { AlertsRoute } from "@/routes/alerts";
import { BacktestRoute } from "@/routes/backtest";
import { CompareRoute } from "@/routes/compare";
import { NotFoundRoute } from "@/routes/notFound";
import { NotificationsRoute } from "@/routes/notifications";
import { OverviewRoute } from "@/routes/overview";
import { RunRoute } from "@/routes/run";
import { RunsRoute } from "@/routes/runs";
import { SignInRoute } from "@/routes/signIn";
import { SystemRoute } from "@/routes/system";

export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: "/", element: <OverviewRoute /> },
      { path: "/systems/:slug", element: <SystemRoute /> },
      { path: "/systems/:slug/backtest", element: <BacktestRoute /> },
      { path: "/runs", element: <RunsRoute /> },
      { path: "/runs/:runId", element: <RunRoute /> },
      { path: "/compare", element: <CompareRoute /> },
      { path: "/alerts", element: <AlertsRoute /> },
      { path: "/admin", element: <AdminRoute /> },
      { path: "/notifications", element: <NotificationsRoute /> },
      { path: "/sign-in", element: <SignInRoute /> },
      { path: "*", element: <NotFoundRoute /> },
    ],
  },
]);
