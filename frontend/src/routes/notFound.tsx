import { Link } from "react-router";
import { Empty } from "@/components/ui/States";

export function NotFoundRoute() {
  return (
    <div className="page">
      <Empty title="There is no page here">
        <Link to="/">Back to the overview</Link>
      </Empty>
    </div>
  );
}
