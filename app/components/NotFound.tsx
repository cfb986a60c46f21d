export function NotFound() {
  return (
    <div className="page narrow center">
      <h1>Nothing to see here!</h1>
      <p>
        <a href="/" className="btn btn-primary">
          Go to the home page
        </a>
      </p>
    </div>
  );
}
